// Package vec holds the vector kernels that Go code on tensors is built
// from: sums, dot products, squared distances, scaling, axpy and minima and
// maxima over slices of Go numbers; element-wise math ([Exp], [Log],
// [Tanh], and [ExpSum], a softmax's exponentials and their sum in one
// pass) and arithmetic on float slices ([Add], [Sub], [Mul], [Div], their
// Const forms, and [MulAdd], [MulAddConst] and [SubMulConst], which save a
// pass over memory); a tile kernel for all pairwise squared distances of
// two sets of rows; matrix products ([Dots], A·Bᵀ, and [MatMul], A·B); the
// k best elements and the extremes' indexes ([TopK], [ArgMax]);
// [Parallel], [ParallelByCost] and [Reduce], which run a range of rows, or
// a reduction the same to the bit at every thread count, on every core; and
// [Prefetch], which asks for the next row's memory while a loop works on
// this one.
//
// On amd64 the kernels use AVX-512 (F, BW, DQ, VL) or AVX2 with FMA, chosen
// at start-up by what the CPU has, and on arm64 NEON, which every arm64 CPU
// has ([Path] says which); a pure-Go path is always built, and the build tag
// purego selects it everywhere. (NEON has no kernel yet for 8- and 16-bit
// integer sums, 64-bit integer products and extremes, and SqDists, which
// take the pure-Go kernels there; AVX2 none for 64-bit integer products and
// extremes.) Each path gives the same results to the bit where the result
// does not depend on the order of additions ([Scale], [Axpy], [Min], [Max],
// the element-wise arithmetic, integer sums) or where every path adds in
// one order (the matrix products: one chain of fused multiply-adds for each
// element); float reductions differ from one path to another only in their
// rounding, within the bounds each function states. The kernels are written
// in Go assembly, which every Go toolchain from Go 1.24 on builds with no
// setting or experiment.
//
// The kernels work on the calling goroutine, in steps short enough for the
// runtime to preempt between them (a garbage collection does not wait for a
// long sum). [Parallel] spreads work over up to [Threads] goroutines, a
// count read at start-up from the environment variable
// GODLPACK_NUM_THREADS (a positive integer; otherwise the cores Go sees,
// runtime.GOMAXPROCS) and set with [SetThreads]; while it does, the
// runtime keeps a P more than the goroutines it uses (within the CPUs + 1),
// for calls from other threads, and GOMAXPROCS is restored when the last
// split running returns.
//
// [Exp], [Log] and [Tanh] of float32 and float64 are within a unit in the
// last place of the exact value, subnormal inputs and results included
// (float32, every input: at most 0.76, 0.52 and 0.70 units; float64,
// sampled against math/big: 0.53, or 0.75 for a subnormal result of Exp,
// 0.52 and 0.52), and give the same bits on every path: one
// polynomial and one order of fused multiply-adds, math.FMA and an exact
// float32 one in plain Go. Special inputs give what NumPy gives: ±Inf,
// overflow to +Inf and underflow to subnormals and +0, Log of 0, of a
// negative and of +Inf, Tanh's ±0 and ±1; a NaN comes back quiet. They
// write dst[i] = f(x[i]) and take dst = x, in place. [ExpSum] writes the
// bits of Exp(x[i] - shift) and returns their [Sum], to the bit.
//
// Float reductions of float32 data accumulate in float64: [Sum], [Dot],
// [SqDist], [SqDistConst] and [ExpSum] return float64. [Sum] is compensated
// and pairwise, and is at least as accurate as NumPy's pairwise summation
// for float32 and float64 alike; the matrix products accumulate in their own
// type, as BLAS does. No kernel allocates, but for the matrix products'
// packing buffers, which a sync.Pool keeps from one call to the next.
//
// The float reductions ([Sum], [ParallelSum], [Dot], [ParallelDot],
// [SqDist], [SqDistConst], [ExpSum], and an [Accumulator]'s sum) keep one
// rule for special values: the result is NaN only where IEEE arithmetic on
// the exact terms gives NaN (a NaN element, a product inf·0, terms of both
// infinities); otherwise an infinite term makes it that infinity, and a sum
// of finite terms is their exact sum rounded once, an infinity where that
// overflows float64. Where only a partial sum (or a product) overflows, the
// result is an infinity or the exact value, never NaN. [SqDists] and the
// matrix products, which accumulate in T, give what T's arithmetic on their
// terms gives.
//
// The package's files are named by job, each instruction set's kernels
// beside their job's Go: reductions (Sum, Dot, SqDist, Min, Max:
// reductions*.go, reductions_*.s), element-wise ops (arith*.go,
// arith_*.s; math*.go, math_*.s; prefetch*), products (products*.go,
// products_*.s), selection (select*.go, select_*.s) and parallel
// (parallel*.go); paths.go, cpu_amd64.go and paths_arm64.go choose the
// path, vector.go wraps whole-vector kernels for any length and alignment,
// and the *_amd64.h and neon_arm64.h headers hold macros the assembly of
// several jobs shares.
package vec
