//go:build !purego

package vec

import "unsafe"

var arithAVX512 = arithKernels{
	f32: longWith(arithAll([arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32AVX512, subF32AVX512, mulF32AVX512, divF32AVX512, addConstF32AVX512, mulConstF32AVX512,
		divConstF32AVX512, mulAddConstF32AVX512, addMulConstF32AVX512, mulAddF32AVX512,
	}), arithAVX2.f32),
	f64: longWith(arithAll([arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64AVX512, subF64AVX512, mulF64AVX512, divF64AVX512, addConstF64AVX512, mulConstF64AVX512,
		divConstF64AVX512, mulAddConstF64AVX512, addMulConstF64AVX512, mulAddF64AVX512,
	}), arithAVX2.f64),
	sqDistConstF32: sqDistConstWith(sqDistConstF32AVX512, 8, 64),
	sqDistConstF64: sqDistConstWith(sqDistConstF64AVX512, 8, 64),
}

var arithAVX2 = arithKernels{
	f32: arithWith([arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32AVX2, subF32AVX2, mulF32AVX2, divF32AVX2, addConstF32AVX2, mulConstF32AVX2,
		divConstF32AVX2, mulAddConstF32AVX2, addMulConstF32AVX2, mulAddF32AVX2,
	}, 8, 32),
	f64: arithWith([arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64AVX2, subF64AVX2, mulF64AVX2, divF64AVX2, addConstF64AVX2, mulConstF64AVX2,
		divConstF64AVX2, mulAddConstF64AVX2, addMulConstF64AVX2, mulAddF64AVX2,
	}, 4, 32),
	sqDistConstF32: sqDistConstWith(sqDistConstF32AVX2, 4, 32),
	sqDistConstF64: sqDistConstWith(sqDistConstF64AVX2, 4, 32),
}

// longStreams is the bytes an operation on two or three slices moves (its
// operands read, dst written) from which the AVX2 kernels outrun the
// AVX-512 ones on this project's machine (Zen 5, 1 MB of L2 a core, 32 MB of
// L3), on memory that NumPy allocates (mmap, transparent huge pages): a 1M
// float64 Add (24 MB) took 243 us with 32-byte vectors, 249-304 us with
// 64-byte ones, 1.4M 426 and 478 us, a 1M float64 MulAdd 576 and 634 us.
// Below, 64-byte vectors are as fast or faster (64k float32 Add in L2,
// 3.4 us against 4.2; 1M float32 MulAdd, 16 MB, 151 against 170), as they
// are for one operand at any length.
const longStreams = 20 << 20

// longWith runs the operations on two or three slices that move longStreams
// bytes or more with long, the others with short.
func longWith[T Float](short, long func(arithOp, []T, []T, []T, []T, T, T)) func(arithOp, []T, []T, []T, []T, T, T) {
	return func(op arithOp, dst, x, y, z []T, a, b T) {
		if op.operands() > 1 && (op.operands()+1)*len(dst)*int(unsafe.Sizeof(T(0))) >= longStreams {
			long(op, dst, x, y, z, a, b)
			return
		}
		short(op, dst, x, y, z, a, b)
	}
}

// arithAll makes a path's element-wise arithmetic of T from assembly kernels, one an arithOp, that take
// every element: step elements a call.
func arithAll[T Float](kernels [arithOps]func(dst, x, y, z *T, n int, a, b T)) func(arithOp, []T, []T, []T, []T, T, T) {
	return func(op arithOp, dst, x, y, z []T, a, b T) {
		for len(dst) > 0 {
			n := min(len(dst), step)
			kernels[op](&dst[0], &x[0], &y[0], &z[0], n, a, b)
			dst, x, y, z = dst[n:], x[n:], y[n:], z[n:]
		}
	}
}

// The assembly kernels of arith_avx512_amd64.s (any length) and arith_avx2_amd64.s (whole vectors only),
// in the order of the arithOps.

func addF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func subF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func divF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func addConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func divConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulAddConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func addMulConstF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func mulAddF32AVX512(dst, x, y, z *float32, n int, a, b float32)
func addF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func subF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func divF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func addConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func divConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulAddConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func addMulConstF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func mulAddF64AVX512(dst, x, y, z *float64, n int, a, b float64)
func sqDistConstF32AVX512(p *float32, n int, c float64) (hi, lo float64)
func sqDistConstF64AVX512(p *float64, n int, c float64) (hi, lo float64)

func addF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func subF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func divF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func addConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func divConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulAddConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func addMulConstF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func mulAddF32AVX2(dst, x, y, z *float32, n int, a, b float32)
func addF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func subF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func divF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func addConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func divConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulAddConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func addMulConstF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func mulAddF64AVX2(dst, x, y, z *float64, n int, a, b float64)
func sqDistConstF32AVX2(p *float32, n int, c float64) (hi, lo float64)
func sqDistConstF64AVX2(p *float64, n int, c float64) (hi, lo float64)
