//go:build purego || !(amd64 || arm64)

package vec

// The kernels of the pure-Go path (arith.go), the only path of this build.

func arithF32Kernel(op arithOp, dst, x, y, z []float32, a, b float32) {
	elementwiseGo(op, dst, x, y, z, a, b)
}

func arithF64Kernel(op arithOp, dst, x, y, z []float64, a, b float64) {
	elementwiseGo(op, dst, x, y, z, a, b)
}

func sqDistConstF32Kernel(x []float32, c float64) dd { return sqDistConstGo(x, c) }
func sqDistConstF64Kernel(x []float64, c float64) dd { return sqDistConstGo(x, c) }
