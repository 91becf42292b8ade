//go:build !purego

package vec

import "unsafe"

// Every arm64 CPU has NEON (Advanced SIMD is part of the architecture): the
// NEON path is the one in use, the pure-Go one beside it for the tests. The
// 8- and 16-bit integer sums, 64-bit integer products and extremes, and the
// tile kernel of SqDists have no NEON kernel yet and take the pure-Go ones.
func init() { use(&neonKernels) }

var neonKernels = kernels{
	path:      "neon",
	sumF32:    sumWith(sumF32NEON, 4, 16, sumF32Go),
	sumF64:    sumF64With(sumF64NEON, 2, 16),
	dotF32:    pairWith(dotF32NEON, 8, 16, dotGo[float32]),
	dotF64:    pairWith(dotF64NEON, 8, 16, dotGo[float64]),
	sqDistF32: pairWith(sqDistF32NEON, 8, 16, sqDistGo[float32]),
	sqDistF64: pairWith(sqDistF64NEON, 8, 16, sqDistGo[float64]),
	sumInt: [kinds]func(unsafe.Pointer, int) uint64{
		i8: sumIntGo[int8], i16: sumIntGo[int16],
		i32: intSumWith[int32](sumI32NEON, 4, 16), i64: intSumWith[int64](sumI64NEON, 2, 16),
		u8: sumIntGo[uint8], u16: sumIntGo[uint16],
		u32: intSumWith[uint32](sumU32NEON, 4, 16), u64: intSumWith[uint64](sumI64NEON, 2, 16),
	},
	scaleF32: scaleWith(scaleF32NEON, 8, 16),
	scaleF64: scaleWith(scaleF64NEON, 4, 16),
	scaleInt: [4]func(unsafe.Pointer, int, uint64){
		scaleIntWith[uint8](scaleI8NEON, 32, 16), scaleIntWith[uint16](scaleI16NEON, 16, 16),
		scaleIntWith[uint32](scaleI32NEON, 8, 16), scaleIntGo[uint64],
	},
	axpyF32: axpyWith(axpyF32NEON, 8, 16),
	axpyF64: axpyWith(axpyF64NEON, 4, 16),
	min: extremesWith([kinds]func(unsafe.Pointer, int) (uint64, bool){
		minI8NEON, minI16NEON, minI32NEON, nil, minU8NEON, minU16NEON, minU32NEON, nil, minF32NEON, minF64NEON,
	}, 32, true),
	max: extremesWith([kinds]func(unsafe.Pointer, int) (uint64, bool){
		maxI8NEON, maxI16NEON, maxI32NEON, nil, maxU8NEON, maxU16NEON, maxU32NEON, nil, maxF32NEON, maxF64NEON,
	}, 32, false),
	sqDistsF32: sqDistsGo[float32],
	arith:      &arithNEON,
}
