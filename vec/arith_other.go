//go:build purego || !(amd64 || arm64)

package vec

import "unsafe"

// The kernels of the pure-Go path (arith.go), the only path of this build.

func arithF32Kernel(op arithOp, dst, x, y, z []float32, a, b float32) {
	elementwiseGo(op, dst, x, y, z, a, b)
}

func arithF64Kernel(op arithOp, dst, x, y, z []float64, a, b float64) {
	elementwiseGo(op, dst, x, y, z, a, b)
}

func sqDistConstF32Kernel(x []float32, c float64) dd { return sqDistConstGo(x, c) }
func sqDistConstF64Kernel(x []float64, c float64) dd { return sqDistConstGo(x, c) }

func scaleF32Kernel(x []float32, a float32)                          { scaleGo(x, a) }
func scaleF64Kernel(x []float64, a float64)                          { scaleGo(x, a) }
func axpyF32Kernel(y []float32, a float32, x []float32)              { axpyGo(y, a, x) }
func axpyF64Kernel(y []float64, a float64, x []float64)              { axpyGo(y, a, x) }
func scaleIntKernel(log2size int, p unsafe.Pointer, n int, a uint64) { scaleIntGoOf(log2size, p, n, a) }
