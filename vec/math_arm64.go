//go:build !purego

package vec

// The kernels of the active path (math.go): NEON's or plain Go's.

func expF32Kernel(dst, x []float32)  { mathOn(expF32NEON, exp32Go, dst, x) }
func logF32Kernel(dst, x []float32)  { mathOn(logF32NEON, log32Go, dst, x) }
func tanhF32Kernel(dst, x []float32) { mathOn(tanhF32NEON, tanh32Go, dst, x) }
func expF64Kernel(dst, x []float64)  { mathOn(expF64NEON, exp64Go, dst, x) }
func logF64Kernel(dst, x []float64)  { mathOn(logF64NEON, log64Go, dst, x) }
func tanhF64Kernel(dst, x []float64) { mathOn(tanhF64NEON, tanh64Go, dst, x) }

func expShiftF32Kernel(dst, x []float32, a float32) { shiftOn(expShiftF32NEON, exp32Go, dst, x, a) }
func expShiftF64Kernel(dst, x []float64, a float64) { shiftOn(expShiftF64NEON, exp64Go, dst, x, a) }

// mathOn is the active path's kernel of f, given its assembly kernel and
// its definition in plain Go.
func mathOn[T Float](neon func(dst, x *T, n int), plain func(T) T, dst, x []T) {
	if active == pathNEON {
		mapAsm(neon, dst, x)
		return
	}
	mapGo(plain, dst, x)
}

// shiftOn is mathOn for a kernel of x + a.
func shiftOn[T Float](neon func(dst, x *T, n int, a T), plain func(T) T, dst, x []T, a T) {
	if active == pathNEON {
		shiftAsm(neon, dst, x, a)
		return
	}
	shiftGo(plain, dst, x, a)
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
