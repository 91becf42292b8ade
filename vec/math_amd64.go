//go:build !purego

package vec

// The kernels of the active path (math.go): AVX-512's, AVX2's or plain Go's.

func expF32Kernel(dst, x []float32)  { mathOn(expF32AVX512, expF32AVX2, exp32Go, dst, x) }
func logF32Kernel(dst, x []float32)  { mathOn(logF32AVX512, logF32AVX2, log32Go, dst, x) }
func tanhF32Kernel(dst, x []float32) { mathOn(tanhF32AVX512, tanhF32AVX2, tanh32Go, dst, x) }
func expF64Kernel(dst, x []float64)  { mathOn(expF64AVX512, expF64AVX2, exp64Go, dst, x) }
func logF64Kernel(dst, x []float64)  { mathOn(logF64AVX512, logF64AVX2, log64Go, dst, x) }
func tanhF64Kernel(dst, x []float64) { mathOn(tanhF64AVX512, tanhF64AVX2, tanh64Go, dst, x) }

func expShiftF32Kernel(dst, x []float32, a float32) {
	shiftOn(expShiftF32AVX512, expShiftF32AVX2, exp32Go, dst, x, a)
}

func expShiftF64Kernel(dst, x []float64, a float64) {
	shiftOn(expShiftF64AVX512, expShiftF64AVX2, exp64Go, dst, x, a)
}

// mathOn is the active path's kernel of f, given its assembly kernels and
// its definition in plain Go.
func mathOn[T Float](avx512, avx2 func(dst, x *T, n int), plain func(T) T, dst, x []T) {
	switch active {
	case pathAVX512:
		mapAsm(avx512, dst, x)
	case pathAVX2:
		mapAsm(avx2, dst, x)
	default:
		mapGo(plain, dst, x)
	}
}

// shiftOn is mathOn for a kernel of x + a.
func shiftOn[T Float](avx512, avx2 func(dst, x *T, n int, a T), plain func(T) T, dst, x []T, a T) {
	switch active {
	case pathAVX512:
		shiftAsm(avx512, dst, x, a)
	case pathAVX2:
		shiftAsm(avx2, dst, x, a)
	default:
		shiftGo(plain, dst, x, a)
	}
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
