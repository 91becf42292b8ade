//go:build purego || !(amd64 || arm64)

package vec

import "unsafe"

// The pure-Go path's reduction kernels (reductions.go), the only path of this build.

func sumF32Kernel(x []float32) float64                    { return sumF32Go(x) }
func sumF64Kernel(x []float64) (hi, lo float64)           { return sumF64Go(x) }
func dotF32Kernel(x, y []float32) float64                 { return dotGo(x, y) }
func dotF64Kernel(x, y []float64) float64                 { return dotGo(x, y) }
func sqDistF32Kernel(x, y []float32) float64              { return sqDistGo(x, y) }
func sqDistF64Kernel(x, y []float64) float64              { return sqDistGo(x, y) }
func sumIntKernel(k kind, p unsafe.Pointer, n int) uint64 { return sumIntGoOf(k, p, n) }

func extremeKernel(k kind, isMin bool, p unsafe.Pointer, n int) (uint64, bool) {
	return extremeGoOf(k, isMin, p, n)
}
