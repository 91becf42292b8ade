package vec

import (
	"github.com/godlpack/godlpack/internal/fmt"
	"unsafe"
)

// Exp writes e**x[i] into dst[i] for every i, within a unit in the last
// place of the exact value: +Inf where that is beyond the largest finite
// float, subnormal results rounded as the exact value rounds (at most a
// unit off), +0 below half the smallest subnormal; Exp(+Inf) = +Inf,
// Exp(-Inf) = +0, and a NaN gives that NaN, made quiet. Every path gives
// the same bits. dst may be x itself (in place); it panics if dst and x
// differ in length or overlap otherwise, where the result would depend on
// the order of the kernel's loads and stores.
func Exp[T Float](dst, x []T) {
	mapFloat("Exp", dst, x, expF32Kernel, expF64Kernel)
}

// Log writes the natural logarithm of x[i] into dst[i] for every i, within
// a unit in the last place of the exact value, subnormal x included:
// Log(±0) = -Inf, Log(+Inf) = +Inf, Log(1) = +0; a negative x, -Inf among
// them, gives the NaN an x86 CPU gives an invalid operation (sign bit set,
// as NumPy's log gives on amd64), and a NaN gives that NaN, made quiet.
// dst and x are as for [Exp].
func Log[T Float](dst, x []T) {
	mapFloat("Log", dst, x, logF32Kernel, logF64Kernel)
}

// Tanh writes the hyperbolic tangent of x[i] into dst[i] for every i,
// within a unit in the last place of the exact value: Tanh(±0) = ±0, a tiny
// x gives x, Tanh(±Inf) = ±1 (and so does every x whose tangent rounds to
// ±1), and a NaN gives that NaN, made quiet. dst and x are as for [Exp].
func Tanh[T Float](dst, x []T) {
	mapFloat("Tanh", dst, x, tanhF32Kernel, tanhF64Kernel)
}

// ExpSum writes e**(x[i] - shift) into dst[i] for every i and returns the
// sum of dst: a softmax's exponentials and their sum, or a log-sum-exp's,
// shift + log(ExpSum(dst, x, shift)), with shift the largest x[i] ([Max]).
// The difference is rounded to T first, so that dst holds the bits that
// [SubConst](dst, x, shift) and then [Exp](dst, dst) give on every path (of
// a NaN, a NaN). The sum is [Sum](dst) to the bit, and as accurate: the
// terms are never negative, so it is within about 2⁻⁴² times itself of the
// exact sum for float32 results (added in float64 lanes), and within a unit
// in its last place plus about len(x)·2⁻¹⁰⁶ times itself for float64 ones;
// of special values, it is NaN where dst holds a NaN, else +Inf where dst
// holds +Inf or the sum overflows float64. An empty x sums to 0. ExpSum
// makes them in one pass over memory where those three calls make three:
// Exp of x - shift a block of a few thousand elements at a time, each block
// summed by Sum's kernels while it is in the core's cache (which adds a
// third to the exponentials' time, where adding each vector of results to
// float64 sums as it was made added a half: the exponentials keep the
// floating-point units busy). dst may be x itself (in place); it panics if
// dst and x differ in length or overlap otherwise.
func ExpSum[T Float](dst, x []T, shift T) float64 {
	if !sameOrApart("ExpSum", dst, x) {
		return 0
	}
	if s := expSumTree(dst, x, -shift).value(); finite(s) || isFloat32[T]() {
		return s
	}
	return resumOf(dst) // as Sum does
}

// expSumTree is ExpSum of x + a by the blocks of [Sum]'s tree, each made
// into dst and summed by its kernels before the next (the runtime can
// preempt the goroutine between any two calls), and the blocks' sums
// added as Sum adds them.
func expSumTree[T Float](dst, x []T, a T) dd {
	if h := halve(len(x)); h > 0 {
		return expSumTree(dst[:h], x[:h], a).plus(expSumTree(dst[h:], x[h:], a))
	}
	if isFloat32[T]() {
		d := as[float32](dst)
		expShiftF32Kernel(d, as[float32](x), float32(a))
		return dd{sumF32Kernel(d), 0}
	}
	d := as[float64](dst)
	expShiftF64Kernel(d, as[float64](x), float64(a))
	hi, lo := sumF64Kernel(d)
	return dd{hi, lo}
}

// mathStep is the most elements one call of a math kernel takes: 2 to 11
// microseconds of a vector path's work, between which the runtime can
// preempt the goroutine (the assembly itself cannot be; plain Go can be
// anywhere).
const mathStep = 1 << 14

func mapFloat[T Float](name string, dst, x []T, f32 func(dst, x []float32), f64 func(dst, x []float64)) {
	sameOrApart(name, dst, x)
	for len(x) > 0 {
		n := min(len(x), mathStep)
		if isFloat32[T]() {
			f32(as[float32](dst[:n]), as[float32](x[:n]))
		} else {
			f64(as[float64](dst[:n]), as[float64](x[:n]))
		}
		dst, x = dst[n:], x[n:]
	}
}

// sameOrApart panics if dst and x differ in length or overlap but for being
// the same; it reports whether they hold elements.
func sameOrApart[T Float](name string, dst, x []T) bool {
	sameLength(name, len(dst), len(x))
	if len(x) == 0 {
		return false
	}
	d, s := uintptr(unsafe.Pointer(&dst[0])), uintptr(unsafe.Pointer(&x[0]))
	if size := uintptr(len(x)) * unsafe.Sizeof(x[0]); d != s && d < s+size && s < d+size {
		panic(fmt.Sprintf("vec.%s: dst and x overlap, %d bytes apart", name, int(d-s)))
	}
	return true
}

// The kernels of the active path (math_amd64.go, math_arm64.go,
// math_other.go) write f(x[i]) into dst[i] (expShift: Exp of x[i] + a),
// for slices of one length that are the same or apart.

// mapGo is a kernel of f in plain Go.
func mapGo[T Float](f func(T) T, dst, x []T) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = f(v)
	}
}

// mapAsm is a kernel of an assembly kernel of n elements at dst and x.
func mapAsm[T Float](kernel func(dst, x *T, n int), dst, x []T) {
	if len(x) > 0 {
		kernel(&dst[:len(x)][0], &x[0], len(x))
	}
}

// shiftGo is mapGo of x + a.
func shiftGo[T Float](f func(T) T, dst, x []T, a T) {
	dst = dst[:len(x)]
	for i, v := range x {
		dst[i] = f(v + a)
	}
}

// shiftAsm is mapAsm for a kernel of x + a.
func shiftAsm[T Float](kernel func(dst, x *T, n int, a T), dst, x []T, a T) {
	if len(x) > 0 {
		kernel(&dst[:len(x)][0], &x[0], len(x), a)
	}
}
