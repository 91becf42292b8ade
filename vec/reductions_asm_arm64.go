//go:build !purego

package vec

import "unsafe"

// The assembly kernels of reductions_neon_arm64.s: whole vectors only.

func sumF32NEON(p *float32, n int) float64
func sumF64NEON(p *float64, n int) (hi, lo float64)
func sumI32NEON(p unsafe.Pointer, n int) uint64
func sumU32NEON(p unsafe.Pointer, n int) uint64
func sumI64NEON(p unsafe.Pointer, n int) uint64
func dotF32NEON(x, y *float32, n int) float64
func dotF64NEON(x, y *float64, n int) float64
func sqDistF32NEON(x, y *float32, n int) float64
func sqDistF64NEON(x, y *float64, n int) float64
func minI8NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI8NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU8NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU8NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minI16NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI16NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU16NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU16NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minI32NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxI32NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minU32NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxU32NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minF32NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxF32NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func minF64NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)
func maxF64NEON(p unsafe.Pointer, n int) (bits uint64, nan bool)

// prefetch asks for the 64-byte lines that hold the n > 0 bytes at p (prefetch_arm64.s).
//
//go:noescape
func prefetch(p unsafe.Pointer, n uintptr)
