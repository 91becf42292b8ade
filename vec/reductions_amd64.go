//go:build !purego

package vec

import "unsafe"

// The reductions' kernels of the active path (paths.go): AVX-512's whole 64-byte
// vectors, AVX2's 32-byte ones, and the pure-Go kernels around them.

func sumF32Kernel(x []float32) float64 {
	switch active {
	case pathAVX512:
		return sumF32AVX512(unsafe.SliceData(x), len(x)) // every element, the edges under a mask
	case pathAVX2:
		return sumVec(sumF32AVX2, 4, 32, sumF32Go, x)
	}
	return sumF32Go(x)
}

func sumF64Kernel(x []float64) (hi, lo float64) {
	switch active {
	case pathAVX512:
		return sumF64Vec(sumF64AVX512, 8, 64, x)
	case pathAVX2:
		return sumF64Vec(sumF64AVX2, 4, 32, x)
	}
	return sumF64Go(x)
}

func dotF32Kernel(x, y []float32) float64 {
	return pairOn(dotF32AVX512, dotF32AVX2, dotGo[float32], x, y)
}
func dotF64Kernel(x, y []float64) float64 {
	return pairOn(dotF64AVX512, dotF64AVX2, dotGo[float64], x, y)
}

func sqDistF32Kernel(x, y []float32) float64 {
	return pairOn(sqDistF32AVX512, sqDistF32AVX2, sqDistGo[float32], x, y)
}

func sqDistF64Kernel(x, y []float64) float64 {
	return pairOn(sqDistF64AVX512, sqDistF64AVX2, sqDistGo[float64], x, y)
}

// pairOn is a kernel of a pair of slices (a dot product, a squared
// distance) on the active path: 8 or 4 elements a step.
func pairOn[T Float](avx512, avx2 func(x, y *T, n int) float64, plain func(x, y []T) float64, x, y []T) float64 {
	switch active {
	case pathAVX512:
		return pairVec(avx512, 8, 64, plain, x, y)
	case pathAVX2:
		return pairVec(avx2, 4, 32, plain, x, y)
	}
	return plain(x, y)
}

// The integer sums by kind; an int64 and a uint64 sum alike.
var (
	sumIntsAVX512 = [kinds]func(p unsafe.Pointer, n int) uint64{i8: sumI8AVX512, i16: sumI16AVX512,
		i32: sumI32AVX512, i64: sumI64AVX512, u8: sumU8AVX512, u16: sumU16AVX512, u32: sumU32AVX512, u64: sumI64AVX512}
	sumIntsAVX2 = [kinds]func(p unsafe.Pointer, n int) uint64{i8: sumI8AVX2, i16: sumI16AVX2, i32: sumI32AVX2,
		i64: sumI64AVX2, u8: sumU8AVX2, u16: sumU16AVX2, u32: sumU32AVX2, u64: sumI64AVX2}
)

func sumIntKernel(k kind, p unsafe.Pointer, n int) uint64 {
	switch active {
	case pathAVX512:
		return intSumOf(k, sumIntsAVX512[k], lanesOf(k, 64, 8), 64, p, n)
	case pathAVX2:
		return intSumOf(k, sumIntsAVX2[k], lanesOf(k, 32, 4), 32, p, n)
	}
	return sumIntGoOf(k, p, n)
}

// The extremes by kind, max's then min's; AVX2 has none of 64-bit integers.
var (
	extremesAVX512 = [2][kinds]func(p unsafe.Pointer, n int) (uint64, bool){
		{maxI8AVX512, maxI16AVX512, maxI32AVX512, maxI64AVX512, maxU8AVX512, maxU16AVX512, maxU32AVX512, maxU64AVX512,
			maxF32AVX512, maxF64AVX512},
		{minI8AVX512, minI16AVX512, minI32AVX512, minI64AVX512, minU8AVX512, minU16AVX512, minU32AVX512, minU64AVX512,
			minF32AVX512, minF64AVX512},
	}
	extremesAVX2 = [2][kinds]func(p unsafe.Pointer, n int) (uint64, bool){
		{maxI8AVX2, maxI16AVX2, maxI32AVX2, nil, maxU8AVX2, maxU16AVX2, maxU32AVX2, nil, maxF32AVX2, maxF64AVX2},
		{minI8AVX2, minI16AVX2, minI32AVX2, nil, minU8AVX2, minU16AVX2, minU32AVX2, nil, minF32AVX2, minF64AVX2},
	}
)

func extremeKernel(k kind, isMin bool, p unsafe.Pointer, n int) (uint64, bool) {
	switch active {
	case pathAVX512: // every element, the edges under a mask
		return extremesAVX512[b2i(isMin)][k](p, n)
	case pathAVX2:
		return extremeOf(k, extremesAVX2[b2i(isMin)][k], 32, isMin, p, n)
	}
	return extremeGoOf(k, isMin, p, n)
}
