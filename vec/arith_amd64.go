//go:build !purego

package vec

import "unsafe"

// The kernels of the active path (arith.go): AVX-512's, AVX2's or plain
// Go's.

func arithF32Kernel(op arithOp, dst, x, y, z []float32, a, b float32) {
	arithOn(&arithF32AVX512, &arithF32AVX2, op, dst, x, y, z, a, b)
}

func arithF64Kernel(op arithOp, dst, x, y, z []float64, a, b float64) {
	arithOn(&arithF64AVX512, &arithF64AVX2, op, dst, x, y, z, a, b)
}

func sqDistConstF32Kernel(x []float32, c float64) dd {
	return sqDistConstOn(sqDistConstF32AVX512, sqDistConstF32AVX2, x, c)
}

func sqDistConstF64Kernel(x []float64, c float64) dd {
	return sqDistConstOn(sqDistConstF64AVX512, sqDistConstF64AVX2, x, c)
}

func scaleF32Kernel(x []float32, a float32) { scaleOn(scaleF32AVX512, scaleF32AVX2, x, a) }
func scaleF64Kernel(x []float64, a float64) { scaleOn(scaleF64AVX512, scaleF64AVX2, x, a) }

// scaleOn is Scale's kernel of a float type on the active path: a whole
// vector of T a step.
func scaleOn[T Float](avx512, avx2 func(p *T, n int, a T), x []T, a T) {
	size := int(unsafe.Sizeof(a))
	switch active {
	case pathAVX512:
		scaleVec(avx512, 64/size, 64, x, a)
	case pathAVX2:
		scaleVec(avx2, 32/size, 32, x, a)
	default:
		scaleGo(x, a)
	}
}

// The integer products by log2 of the size; AVX2 has no 64-bit one.
var (
	scaleIntsAVX512 = [4]func(p unsafe.Pointer, n int, a uint64){scaleI8AVX512, scaleI16AVX512, scaleI32AVX512,
		scaleI64AVX512}
	scaleIntsAVX2 = [4]func(p unsafe.Pointer, n int, a uint64){scaleI8AVX2, scaleI16AVX2, scaleI32AVX2, nil}
)

func scaleIntKernel(log2size int, p unsafe.Pointer, n int, a uint64) {
	switch active {
	case pathAVX512:
		scaleIntOf(log2size, scaleIntsAVX512[log2size], 64, 64, p, n, a)
	case pathAVX2:
		scaleIntOf(log2size, scaleIntsAVX2[log2size], 32, 32, p, n, a)
	default:
		scaleIntGoOf(log2size, p, n, a)
	}
}

func axpyF32Kernel(y []float32, a float32, x []float32) { axpyOn(axpyF32AVX512, axpyF32AVX2, y, a, x) }
func axpyF64Kernel(y []float64, a float64, x []float64) { axpyOn(axpyF64AVX512, axpyF64AVX2, y, a, x) }

// axpyOn is Axpy's kernel on the active path: a whole vector of T a step.
func axpyOn[T Float](avx512, avx2 func(y, x *T, n int, a T), y []T, a T, x []T) {
	size := int(unsafe.Sizeof(a))
	switch active {
	case pathAVX512:
		axpyVec(avx512, 64/size, 64, y, a, x)
	case pathAVX2:
		axpyVec(avx2, 32/size, 32, y, a, x)
	default:
		axpyGo(y, a, x)
	}
}

// arithOn is the element-wise arithmetic of T on the active path: on the
// AVX-512 one, AVX2's kernels for the operations on two or three slices
// that move longStreams bytes or more (longStream).
func arithOn[T Float](avx512, avx2 *[arithOps]func(dst, x, y, z *T, n int, a, b T), op arithOp, dst, x, y, z []T, a, b T) {
	size := int(unsafe.Sizeof(a))
	switch {
	case active == pathAVX512 && !longStream(op, len(dst), size):
		arithAll(avx512, op, dst, x, y, z, a, b)
	case active == pathAVX512, active == pathAVX2:
		arithVec(avx2, 32/size, 32, op, dst, x, y, z, a, b)
	default:
		elementwiseGo(op, dst, x, y, z, a, b)
	}
}

// sqDistConstOn is SqDistConst's block on the active path.
func sqDistConstOn[T Float](avx512, avx2 func(p *T, n int, c float64) (hi, lo float64), x []T, c float64) dd {
	switch active {
	case pathAVX512:
		return sqDistConstVec(avx512, 8, 64, x, c)
	case pathAVX2:
		return sqDistConstVec(avx2, 4, 32, x, c)
	}
	return sqDistConstGo(x, c)
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

// longStream reports whether op, on n elements of size bytes, is an
// operation on two or three slices that moves longStreams bytes or more.
func longStream(op arithOp, n, size int) bool {
	return op.operands() > 1 && (op.operands()+1)*n*size >= longStreams
}

// arithAll runs op with assembly kernels, one an arithOp, that take every
// element: step elements a call.
func arithAll[T Float](kernels *[arithOps]func(dst, x, y, z *T, n int, a, b T), op arithOp, dst, x, y, z []T, a, b T) {
	for len(dst) > 0 {
		n := min(len(dst), step)
		kernels[op](&dst[0], &x[0], &y[0], &z[0], n, a, b)
		dst, x, y, z = dst[n:], x[n:], y[n:], z[n:]
	}
}

// The assembly kernels of arith_avx512_amd64.s (any length) and
// arith_avx2_amd64.s (whole vectors only), by arithOp.

var (
	arithF32AVX512 = [arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32AVX512, subF32AVX512, mulF32AVX512, divF32AVX512, addConstF32AVX512, mulConstF32AVX512,
		divConstF32AVX512, mulAddConstF32AVX512, addMulConstF32AVX512, mulAddF32AVX512,
	}
	arithF64AVX512 = [arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64AVX512, subF64AVX512, mulF64AVX512, divF64AVX512, addConstF64AVX512, mulConstF64AVX512,
		divConstF64AVX512, mulAddConstF64AVX512, addMulConstF64AVX512, mulAddF64AVX512,
	}
	arithF32AVX2 = [arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32AVX2, subF32AVX2, mulF32AVX2, divF32AVX2, addConstF32AVX2, mulConstF32AVX2,
		divConstF32AVX2, mulAddConstF32AVX2, addMulConstF32AVX2, mulAddF32AVX2,
	}
	arithF64AVX2 = [arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64AVX2, subF64AVX2, mulF64AVX2, divF64AVX2, addConstF64AVX2, mulConstF64AVX2,
		divConstF64AVX2, mulAddConstF64AVX2, addMulConstF64AVX2, mulAddF64AVX2,
	}
)

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

// The assembly kernels of Scale and Axpy, in arith_avx512_amd64.s and
// arith_avx2_amd64.s: whole vectors only.

func scaleF32AVX512(p *float32, n int, a float32)
func scaleF64AVX512(p *float64, n int, a float64)
func scaleI8AVX512(p unsafe.Pointer, n int, a uint64)
func scaleI16AVX512(p unsafe.Pointer, n int, a uint64)
func scaleI32AVX512(p unsafe.Pointer, n int, a uint64)
func scaleI64AVX512(p unsafe.Pointer, n int, a uint64)
func axpyF32AVX512(y, x *float32, n int, a float32)
func axpyF64AVX512(y, x *float64, n int, a float64)

func scaleF32AVX2(p *float32, n int, a float32)
func scaleF64AVX2(p *float64, n int, a float64)
func scaleI8AVX2(p unsafe.Pointer, n int, a uint64)
func scaleI16AVX2(p unsafe.Pointer, n int, a uint64)
func scaleI32AVX2(p unsafe.Pointer, n int, a uint64)
func axpyF32AVX2(y, x *float32, n int, a float32)
func axpyF64AVX2(y, x *float64, n int, a float64)
