//go:build !purego

package vec

import "unsafe"

// The reductions' kernels of the active path (paths.go): NEON's whole 16-byte
// vectors, and the pure-Go kernels around them.

func sumF32Kernel(x []float32) float64 {
	if active == pathNEON {
		return sumVec(sumF32NEON, 4, 16, sumF32Go, x)
	}
	return sumF32Go(x)
}

func sumF64Kernel(x []float64) (hi, lo float64) {
	if active == pathNEON {
		return sumF64Vec(sumF64NEON, 2, 16, x)
	}
	return sumF64Go(x)
}

func dotF32Kernel(x, y []float32) float64    { return pairOn(dotF32NEON, dotGo[float32], x, y) }
func dotF64Kernel(x, y []float64) float64    { return pairOn(dotF64NEON, dotGo[float64], x, y) }
func sqDistF32Kernel(x, y []float32) float64 { return pairOn(sqDistF32NEON, sqDistGo[float32], x, y) }
func sqDistF64Kernel(x, y []float64) float64 { return pairOn(sqDistF64NEON, sqDistGo[float64], x, y) }

// pairOn is a kernel of a pair of slices (a dot product, a squared
// distance) on the active path: 8 elements a step.
func pairOn[T Float](neon func(x, y *T, n int) float64, plain func(x, y []T) float64, x, y []T) float64 {
	if active == pathNEON {
		return pairVec(neon, 8, 16, plain, x, y)
	}
	return plain(x, y)
}

// The integer sums by kind (none of 8 or 16 bits); an int64 and a uint64 sum alike.
var sumIntsNEON = [kinds]func(p unsafe.Pointer, n int) uint64{i32: sumI32NEON, i64: sumI64NEON, u32: sumU32NEON,
	u64: sumI64NEON}

func sumIntKernel(k kind, p unsafe.Pointer, n int) uint64 {
	if active == pathNEON && sumIntsNEON[k] != nil {
		return intSumOf(k, sumIntsNEON[k], 16>>k.log2size(), 16, p, n)
	}
	return sumIntGoOf(k, p, n)
}

// The extremes by kind, max's then min's; none of 64-bit integers.
var extremesNEON = [2][kinds]func(p unsafe.Pointer, n int) (uint64, bool){
	{maxI8NEON, maxI16NEON, maxI32NEON, nil, maxU8NEON, maxU16NEON, maxU32NEON, nil, maxF32NEON, maxF64NEON},
	{minI8NEON, minI16NEON, minI32NEON, nil, minU8NEON, minU16NEON, minU32NEON, nil, minF32NEON, minF64NEON},
}

func extremeKernel(k kind, isMin bool, p unsafe.Pointer, n int) (uint64, bool) {
	if active == pathNEON {
		return extremeOf(k, extremesNEON[b2i(isMin)][k], 32, isMin, p, n)
	}
	return extremeGoOf(k, isMin, p, n)
}
