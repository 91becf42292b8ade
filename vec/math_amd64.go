//go:build !purego

package vec

// Exp, Log and Tanh on amd64: AVX-512 where the CPU has it, chosen at
// start-up from the same features as the other kernels.
func init() {
	if _, avx512 := features(); avx512 {
		useMath(&mathAVX512)
	}
}

var mathAVX512 = mathKernels{
	path:  "avx512",
	exp32: mapAsm(expF32AVX512), log32: mapAsm(logF32AVX512), tanh32: mapAsm(tanhF32AVX512),
	exp64: mapAsm(expF64AVX512), log64: mapAsm(logF64AVX512), tanh64: mapAsm(tanhF64AVX512),
}

// The kernels of math_avx512_amd64.s: f of n elements, a last partial
// vector among them.

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
