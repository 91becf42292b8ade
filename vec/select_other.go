//go:build purego || !amd64

package vec

// The kernels of the pure-Go path (select.go): arm64 has no NEON selection
// kernels yet.

func scanF32Kernel(x []float32, t float32, mode int) int { return scanGo(x, t, mode) }
func scanF64Kernel(x []float64, t float64, mode int) int { return scanGo(x, t, mode) }
func argF32Kernel(x []float32, mode int) int             { return argGo(x, mode) }
func argF64Kernel(x []float64, mode int) int             { return argGo(x, mode) }
