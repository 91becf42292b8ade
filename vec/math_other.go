//go:build purego || !(amd64 || arm64)

package vec

// The kernels of the pure-Go path (math.go), the only path of this build.

func expF32Kernel(dst, x []float32)  { mapGo(exp32Go, dst, x) }
func logF32Kernel(dst, x []float32)  { mapGo(log32Go, dst, x) }
func tanhF32Kernel(dst, x []float32) { mapGo(tanh32Go, dst, x) }
func expF64Kernel(dst, x []float64)  { mapGo(exp64Go, dst, x) }
func logF64Kernel(dst, x []float64)  { mapGo(log64Go, dst, x) }
func tanhF64Kernel(dst, x []float64) { mapGo(tanh64Go, dst, x) }

func expShiftF32Kernel(dst, x []float32, a float32) { shiftGo(exp32Go, dst, x, a) }
func expShiftF64Kernel(dst, x []float64, a float64) { shiftGo(exp64Go, dst, x, a) }
