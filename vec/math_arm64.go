//go:build !purego

package vec

// Exp, Log and Tanh on arm64: NEON, which every arm64 CPU has.
func init() { useMath(&mathNEON) }

var mathNEON = mathKernels{
	path:  "neon",
	exp32: mapAsm(expF32NEON), log32: mapAsm(logF32NEON), tanh32: mapAsm(tanhF32NEON),
	exp64: mapAsm(expF64NEON), log64: mapAsm(logF64NEON), tanh64: mapAsm(tanhF64NEON),
	expShift32: shiftAsm(expShiftF32NEON), expShift64: shiftAsm(expShiftF64NEON),
}

// The kernels of math_neon_arm64.s: f of n elements (expShift: Exp of x +
// a), a last partial vector among them.

//go:noescape
func expF32NEON(dst, x *float32, n int)

//go:noescape
func expShiftF32NEON(dst, x *float32, n int, a float32)

//go:noescape
func expShiftF64NEON(dst, x *float64, n int, a float64)

//go:noescape
func logF32NEON(dst, x *float32, n int)

//go:noescape
func tanhF32NEON(dst, x *float32, n int)

//go:noescape
func expF64NEON(dst, x *float64, n int)

//go:noescape
func logF64NEON(dst, x *float64, n int)

//go:noescape
func tanhF64NEON(dst, x *float64, n int)
