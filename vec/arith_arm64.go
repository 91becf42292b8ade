//go:build !purego

package vec

import "unsafe"

// The kernels of the active path (arith.go): NEON's or plain Go's.

func arithF32Kernel(op arithOp, dst, x, y, z []float32, a, b float32) {
	arithOn(&arithF32NEON, op, dst, x, y, z, a, b)
}

func arithF64Kernel(op arithOp, dst, x, y, z []float64, a, b float64) {
	arithOn(&arithF64NEON, op, dst, x, y, z, a, b)
}

func sqDistConstF32Kernel(x []float32, c float64) dd { return sqDistConstOn(sqDistConstF32NEON, x, c) }
func sqDistConstF64Kernel(x []float64, c float64) dd { return sqDistConstOn(sqDistConstF64NEON, x, c) }

func scaleF32Kernel(x []float32, a float32) { scaleOn(scaleF32NEON, x, a) }
func scaleF64Kernel(x []float64, a float64) { scaleOn(scaleF64NEON, x, a) }

// scaleOn is Scale's kernel of a float type on the active path: two
// vectors of T a step.
func scaleOn[T Float](neon func(p *T, n int, a T), x []T, a T) {
	if active == pathNEON {
		scaleVec(neon, 32/int(unsafe.Sizeof(a)), 16, x, a)
		return
	}
	scaleGo(x, a)
}

// The integer products by log2 of the size; none of 64 bits.
var scaleIntsNEON = [4]func(p unsafe.Pointer, n int, a uint64){scaleI8NEON, scaleI16NEON, scaleI32NEON, nil}

func scaleIntKernel(log2size int, p unsafe.Pointer, n int, a uint64) {
	if active == pathNEON {
		scaleIntOf(log2size, scaleIntsNEON[log2size], 32, 16, p, n, a)
		return
	}
	scaleIntGoOf(log2size, p, n, a)
}

func axpyF32Kernel(y []float32, a float32, x []float32) { axpyOn(axpyF32NEON, y, a, x) }
func axpyF64Kernel(y []float64, a float64, x []float64) { axpyOn(axpyF64NEON, y, a, x) }

// axpyOn is Axpy's kernel on the active path: two vectors of T a step.
func axpyOn[T Float](neon func(y, x *T, n int, a T), y []T, a T, x []T) {
	if active == pathNEON {
		axpyVec(neon, 32/int(unsafe.Sizeof(a)), 16, y, a, x)
		return
	}
	axpyGo(y, a, x)
}

// arithOn is the element-wise arithmetic of T on the active path: two
// vectors a step.
func arithOn[T Float](neon *[arithOps]func(dst, x, y, z *T, n int, a, b T), op arithOp, dst, x, y, z []T, a, b T) {
	if active == pathNEON {
		arithVec(neon, 32/int(unsafe.Sizeof(a)), 16, op, dst, x, y, z, a, b)
		return
	}
	elementwiseGo(op, dst, x, y, z, a, b)
}

// sqDistConstOn is SqDistConst's block on the active path: a vector of
// float64 squares a step.
func sqDistConstOn[T Float](neon func(p *T, n int, c float64) (hi, lo float64), x []T, c float64) dd {
	if active == pathNEON {
		return sqDistConstVec(neon, 16/int(unsafe.Sizeof(T(0))), 16, x, c)
	}
	return sqDistConstGo(x, c)
}

// The assembly kernels of arith_neon_arm64.s: whole vectors only, by
// arithOp.

var (
	arithF32NEON = [arithOps]func(dst, x, y, z *float32, n int, a, b float32){
		addF32NEON, subF32NEON, mulF32NEON, divF32NEON, addConstF32NEON, mulConstF32NEON, divConstF32NEON,
		mulAddConstF32NEON, addMulConstF32NEON, mulAddF32NEON,
	}
	arithF64NEON = [arithOps]func(dst, x, y, z *float64, n int, a, b float64){
		addF64NEON, subF64NEON, mulF64NEON, divF64NEON, addConstF64NEON, mulConstF64NEON, divConstF64NEON,
		mulAddConstF64NEON, addMulConstF64NEON, mulAddF64NEON,
	}
)

func addF32NEON(dst, x, y, z *float32, n int, a, b float32)
func subF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulF32NEON(dst, x, y, z *float32, n int, a, b float32)
func divF32NEON(dst, x, y, z *float32, n int, a, b float32)
func addConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func divConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulAddConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func addMulConstF32NEON(dst, x, y, z *float32, n int, a, b float32)
func mulAddF32NEON(dst, x, y, z *float32, n int, a, b float32)
func addF64NEON(dst, x, y, z *float64, n int, a, b float64)
func subF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulF64NEON(dst, x, y, z *float64, n int, a, b float64)
func divF64NEON(dst, x, y, z *float64, n int, a, b float64)
func addConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func divConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulAddConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func addMulConstF64NEON(dst, x, y, z *float64, n int, a, b float64)
func mulAddF64NEON(dst, x, y, z *float64, n int, a, b float64)
func sqDistConstF32NEON(p *float32, n int, c float64) (hi, lo float64)
func sqDistConstF64NEON(p *float64, n int, c float64) (hi, lo float64)

// The assembly kernels of Scale and Axpy, in arith_neon_arm64.s: whole
// vectors only.

func scaleF32NEON(p *float32, n int, a float32)
func scaleF64NEON(p *float64, n int, a float64)
func scaleI8NEON(p unsafe.Pointer, n int, a uint64)
func scaleI16NEON(p unsafe.Pointer, n int, a uint64)
func scaleI32NEON(p unsafe.Pointer, n int, a uint64)
func axpyF32NEON(y, x *float32, n int, a float32)
func axpyF64NEON(y, x *float64, n int, a float64)
