//go:build !purego

package vec

// The best path the CPU runs is active, AVX2 beside AVX-512 for the tests.
func init() {
	switch avx2, avx512 := features(); {
	case avx512:
		use(pathAVX512, pathAVX2)
	case avx2:
		use(pathAVX2)
	}
}

func cpuid(leaf, sub uint32) (a, b, c, d uint32)
func xgetbv() (eax uint32)

// features reports what the CPU and the operating system let this process
// run: AVX2 with FMA, and AVX-512 F, BW, DQ and VL (the kernels use all
// four).
func features() (avx2, avx512 bool) {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false, false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx, fma = 1 << 27, 1 << 28, 1 << 12
	if c1&osxsave == 0 || c1&avx == 0 || c1&fma == 0 {
		return false, false
	}
	xcr0 := xgetbv()
	const ymmState, zmmState = 0x6, 0xe6 // SSE and AVX state; and opmask, ZMM0-15 upper halves, ZMM16-31
	_, b7, _, _ := cpuid(7, 0)
	const bitAVX2, bitF, bitDQ, bitBW, bitVL = 1 << 5, 1 << 16, 1 << 17, 1 << 30, 1 << 31
	avx2 = xcr0&ymmState == ymmState && b7&bitAVX2 != 0
	all512 := uint32(bitF | bitDQ | bitBW | bitVL)
	avx512 = avx2 && xcr0&zmmState == zmmState && b7&all512 == all512
	return avx2, avx512
}
