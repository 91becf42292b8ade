//go:build !purego

package vec

// productsOn returns the active path's matrix-product kernels and blocks
// (products.go).
func productsOn() *productKernels {
	if active == pathNEON {
		return &productsNEON
	}
	return &productsGo
}

// sqDistsF32Kernel is SqDists's tile kernel of float32, in plain Go: NEON
// has none yet.
func sqDistsF32Kernel(dst, a, b []float32, n, m, k int) { sqDistsGo(dst, a, b, n, m, k) }

// The NEON micro-kernel is 8 rows by two vectors, in 16 of the 32
// registers. Its panels are packed in pure Go.
var productsNEON = productKernels{
	f32: gemm[float32]{mr: 8, nr: 8, kc: 256, mc: 128, nc: 2048, kernel: gemmF32NEON, packRows: packRowsGo[float32]},
	f64: gemm[float64]{mr: 8, nr: 4, kc: 256, mc: 128, nc: 1024, kernel: gemmF64NEON, packRows: packRowsGo[float64]},
}

// The assembly kernels of products_neon_arm64.s.

//go:noescape
func gemmF32NEON(dst *float32, ldc int, a, b *float32, kc, panels, flags int)

//go:noescape
func gemmF64NEON(dst *float64, ldc int, a, b *float64, kc, panels, flags int)
