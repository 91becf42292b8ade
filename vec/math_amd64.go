//go:build !purego

package vec

// Exp, Log and Tanh on amd64: AVX-512 or AVX2 with FMA, chosen at start-up
// from the same features as the other kernels.
func init() {
	switch avx2, avx512 := features(); {
	case avx512:
		useMath(&mathAVX512, &mathAVX2)
	case avx2:
		useMath(&mathAVX2)
	}
}

var mathAVX512 = mathKernels{
	path:  "avx512",
	exp32: mapAsm(expF32AVX512), log32: mapAsm(logF32AVX512), tanh32: mapAsm(tanhF32AVX512),
	exp64: mapAsm(expF64AVX512), log64: mapAsm(logF64AVX512), tanh64: mapAsm(tanhF64AVX512),
	expShift32: shiftAsm(expShiftF32AVX512), expShift64: shiftAsm(expShiftF64AVX512),
}

var mathAVX2 = mathKernels{
	path:  "avx2",
	exp32: mapAsm(expF32AVX2), log32: mapAsm(logF32AVX2), tanh32: mapAsm(tanhF32AVX2),
	exp64: mapAsm(expF64AVX2), log64: mapAsm(logF64AVX2), tanh64: mapAsm(tanhF64AVX2),
	expShift32: shiftAsm(expShiftF32AVX2), expShift64: shiftAsm(expShiftF64AVX2),
}

// The kernels of math_avx512_amd64.s and math_avx2_amd64.s: f of n
// elements (expShift: Exp of x + a), a last partial vector among them.

//go:noescape
func expF32AVX512(dst, x *float32, n int)

//go:noescape
func logF32AVX512(dst, x *float32, n int)

//go:noescape
func tanhF32AVX512(dst, x *float32, n int)

//go:noescape
func expF64AVX512(dst, x *float64, n int)

//go:noescape
func logF64AVX512(dst, x *float64, n int)

//go:noescape
func tanhF64AVX512(dst, x *float64, n int)

//go:noescape
func expShiftF32AVX512(dst, x *float32, n int, a float32)

//go:noescape
func expShiftF64AVX512(dst, x *float64, n int, a float64)

//go:noescape
func expF32AVX2(dst, x *float32, n int)

//go:noescape
func expShiftF32AVX2(dst, x *float32, n int, a float32)

//go:noescape
func expShiftF64AVX2(dst, x *float64, n int, a float64)

//go:noescape
func logF32AVX2(dst, x *float32, n int)

//go:noescape
func tanhF32AVX2(dst, x *float32, n int)

//go:noescape
func expF64AVX2(dst, x *float64, n int)

//go:noescape
func logF64AVX2(dst, x *float64, n int)

//go:noescape
func tanhF64AVX2(dst, x *float64, n int)
