//go:build !purego

package vec

import "unsafe"

func init() {
	switch avx2, avx512 := features(); {
	case avx512:
		use(&avx512Kernels, &avx2Kernels)
	case avx2:
		use(&avx2Kernels)
	}
}

var avx512Kernels = kernels{
	path:      "avx512",
	sumF32:    sumWith(sumF32AVX512, 8, 64, sumF32Go),
	sumF64:    sumF64With(sumF64AVX512, 8, 64),
	dotF32:    pairWith(dotF32AVX512, 8, 64, dotGo[float32]),
	dotF64:    pairWith(dotF64AVX512, 8, 64, dotGo[float64]),
	sqDistF32: pairWith(sqDistF32AVX512, 8, 64, sqDistGo[float32]),
	sqDistF64: pairWith(sqDistF64AVX512, 8, 64, sqDistGo[float64]),
	sumInt: [kinds]func(unsafe.Pointer, int) uint64{
		i8: intSumWith[int8](sumI8AVX512, 64, 64), i16: intSumWith[int16](sumI16AVX512, 8, 64),
		i32: intSumWith[int32](sumI32AVX512, 8, 64), i64: intSumWith[int64](sumI64AVX512, 8, 64),
		u8: intSumWith[uint8](sumU8AVX512, 64, 64), u16: intSumWith[uint16](sumU16AVX512, 8, 64),
		u32: intSumWith[uint32](sumU32AVX512, 8, 64), u64: intSumWith[uint64](sumI64AVX512, 8, 64),
	},
	scaleF32: scaleWith(scaleF32AVX512, 16, 64),
	scaleF64: scaleWith(scaleF64AVX512, 8, 64),
	scaleInt: [4]func(unsafe.Pointer, int, uint64){
		scaleIntWith[uint8](scaleI8AVX512, 64, 64), scaleIntWith[uint16](scaleI16AVX512, 32, 64),
		scaleIntWith[uint32](scaleI32AVX512, 16, 64), scaleIntWith[uint64](scaleI64AVX512, 8, 64),
	},
	axpyF32: axpyWith(axpyF32AVX512, 16, 64),
	axpyF64: axpyWith(axpyF64AVX512, 8, 64),
	// The minima and maxima take every element, the edges under a mask.
	min: [kinds]func(unsafe.Pointer, int) (uint64, bool){
		minI8AVX512, minI16AVX512, minI32AVX512, minI64AVX512, minU8AVX512, minU16AVX512, minU32AVX512,
		minU64AVX512, minF32AVX512, minF64AVX512,
	},
	max: [kinds]func(unsafe.Pointer, int) (uint64, bool){
		maxI8AVX512, maxI16AVX512, maxI32AVX512, maxI64AVX512, maxU8AVX512, maxU16AVX512, maxU32AVX512,
		maxU64AVX512, maxF32AVX512, maxF64AVX512,
	},
	sqDistsF32: sqDistsWith(sqDistsF32AVX512, 4, 4),
	arith:      &arithAVX512,
}

var avx2Kernels = kernels{
	path:      "avx2",
	sumF32:    sumWith(sumF32AVX2, 4, 32, sumF32Go),
	sumF64:    sumF64With(sumF64AVX2, 4, 32),
	dotF32:    pairWith(dotF32AVX2, 4, 32, dotGo[float32]),
	dotF64:    pairWith(dotF64AVX2, 4, 32, dotGo[float64]),
	sqDistF32: pairWith(sqDistF32AVX2, 4, 32, sqDistGo[float32]),
	sqDistF64: pairWith(sqDistF64AVX2, 4, 32, sqDistGo[float64]),
	sumInt: [kinds]func(unsafe.Pointer, int) uint64{
		i8: intSumWith[int8](sumI8AVX2, 32, 32), i16: intSumWith[int16](sumI16AVX2, 4, 32),
		i32: intSumWith[int32](sumI32AVX2, 4, 32), i64: intSumWith[int64](sumI64AVX2, 4, 32),
		u8: intSumWith[uint8](sumU8AVX2, 32, 32), u16: intSumWith[uint16](sumU16AVX2, 4, 32),
		u32: intSumWith[uint32](sumU32AVX2, 4, 32), u64: intSumWith[uint64](sumI64AVX2, 4, 32),
	},
	scaleF32: scaleWith(scaleF32AVX2, 8, 32),
	scaleF64: scaleWith(scaleF64AVX2, 4, 32),
	scaleInt: [4]func(unsafe.Pointer, int, uint64){
		scaleIntWith[uint8](scaleI8AVX2, 32, 32), scaleIntWith[uint16](scaleI16AVX2, 16, 32),
		scaleIntWith[uint32](scaleI32AVX2, 8, 32), scaleIntGo[uint64],
	},
	axpyF32: axpyWith(axpyF32AVX2, 8, 32),
	axpyF64: axpyWith(axpyF64AVX2, 4, 32),
	min: extremesWith([kinds]func(unsafe.Pointer, int) (uint64, bool){
		minI8AVX2, minI16AVX2, minI32AVX2, nil, minU8AVX2, minU16AVX2, minU32AVX2, nil, minF32AVX2, minF64AVX2,
	}, 32, true),
	max: extremesWith([kinds]func(unsafe.Pointer, int) (uint64, bool){
		maxI8AVX2, maxI16AVX2, maxI32AVX2, nil, maxU8AVX2, maxU16AVX2, maxU32AVX2, nil, maxF32AVX2, maxF64AVX2,
	}, 32, false),
	sqDistsF32: sqDistsWith(sqDistsF32AVX2, 2, 4),
	arith:      &arithAVX2,
}
