//go:build !purego

package vec

import "unsafe"

// The assembly kernels of reductions_avx512_amd64.s and reductions_avx2_amd64.s: whole vectors only, but AVX-512's
// float32 sum, which takes any n at any address, and its minima and maxima, any n >= 1 at any address.

func sumF32AVX512(p *float32, n int) float64
func sumF64AVX512(p *float64, n int) (hi, lo float64)
func sumI8AVX512(p unsafe.Pointer, n int) uint64
func sumU8AVX512(p unsafe.Pointer, n int) uint64
func sumI16AVX512(p unsafe.Pointer, n int) uint64
func sumU16AVX512(p unsafe.Pointer, n int) uint64
func sumI32AVX512(p unsafe.Pointer, n int) uint64
func sumU32AVX512(p unsafe.Pointer, n int) uint64
func sumI64AVX512(p unsafe.Pointer, n int) uint64
func dotF32AVX512(x, y *float32, n int) float64
func dotF64AVX512(x, y *float64, n int) float64
func sqDistF32AVX512(x, y *float32, n int) float64
func sqDistF64AVX512(x, y *float64, n int) float64
func minI8AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI8AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU8AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU8AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minI16AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI16AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU16AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU16AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minI32AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI32AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU32AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU32AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minI64AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI64AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU64AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU64AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minF32AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxF32AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minF64AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxF64AVX512(p unsafe.Pointer, n int) (bits uint64, nan bool)

func sumF32AVX2(p *float32, n int) float64
func sumF64AVX2(p *float64, n int) (hi, lo float64)
func sumI8AVX2(p unsafe.Pointer, n int) uint64
func sumU8AVX2(p unsafe.Pointer, n int) uint64
func sumI16AVX2(p unsafe.Pointer, n int) uint64
func sumU16AVX2(p unsafe.Pointer, n int) uint64
func sumI32AVX2(p unsafe.Pointer, n int) uint64
func sumU32AVX2(p unsafe.Pointer, n int) uint64
func sumI64AVX2(p unsafe.Pointer, n int) uint64
func dotF32AVX2(x, y *float32, n int) float64
func dotF64AVX2(x, y *float64, n int) float64
func sqDistF32AVX2(x, y *float32, n int) float64
func sqDistF64AVX2(x, y *float64, n int) float64
func minI8AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI8AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU8AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU8AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minI16AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI16AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU16AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU16AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minI32AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI32AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU32AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU32AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minF32AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxF32AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minF64AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxF64AVX2(p unsafe.Pointer, n int) (bits uint64, nan bool)

// prefetch asks for the 64-byte lines that hold the n > 0 bytes at p (prefetch_amd64.s).
//
//go:noescape
func prefetch(p unsafe.Pointer, n uintptr)
