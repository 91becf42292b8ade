//go:build !purego

package vec

// productsOn returns the active path's matrix-product kernels and blocks
// (products.go).
func productsOn() *productKernels {
	switch active {
	case pathAVX512:
		return &productsAVX512
	case pathAVX2:
		return &productsAVX2
	}
	return &productsGo
}

// sqDistsF32Kernel is SqDists of float32 on the active path: a tile kernel
// of 4 rows of a (AVX-512) or 2 (AVX2) by 4 rows of b.
func sqDistsF32Kernel(dst, a, b []float32, n, m, k int) {
	switch active {
	case pathAVX512:
		sqDistsVec(sqDistsF32AVX512, 4, 4, dst, a, b, n, m, k)
	case pathAVX2:
		sqDistsVec(sqDistsF32AVX2, 2, 4, dst, a, b, n, m, k)
	default:
		sqDistsGo(dst, a, b, n, m, k)
	}
}

// The AVX-512 micro-kernel is 16 rows by one vector, in 16 of the 32
// registers, and its panels of 16 rows are transposed in registers. On this
// project's AMD EPYC (Zen 5) micro-kernels of float32 reached 240 GFLOP/s
// in isolation at 16 by 16 (of about 250 at peak), 248 at 24 by 16, 236 at
// 12 by 32 and 220 at 6 by 64; 16 rows waste none of 64 queries (24 would
// compute 72), and a block of 16 by 16 transposes in registers. Blocks of
// k from 128 to 512 and of rows from 96 to 384 gave 1000-square products
// within 3% of each other.
var productsAVX512 = productKernels{
	f32: gemm[float32]{mr: 16, nr: 16, kc: 384, mc: 192, nc: 2048, kernel: gemmF32AVX512, packRows: packRowsF32AVX512},
	f64: gemm[float64]{mr: 16, nr: 8, kc: 256, mc: 192, nc: 1024, kernel: gemmF64AVX512, packRows: packRowsF64AVX512},
}

// The AVX2 micro-kernel is 6 rows by two vectors, in 12 of the 16
// registers.
var productsAVX2 = productKernels{
	f32: gemm[float32]{mr: 6, nr: 16, kc: 256, mc: 96, nc: 2048, kernel: gemmF32AVX2, packRows: packRowsGo[float32]},
	f64: gemm[float64]{mr: 6, nr: 8, kc: 256, mc: 96, nc: 1024, kernel: gemmF64AVX2, packRows: packRowsGo[float64]},
}

func packRowsF32AVX512(dst, x []float32, ld, i, rows, p, kc, r int) {
	packRowsWith(transposeF32AVX512, 16, dst, x, ld, i, rows, p, kc, r)
}

func packRowsF64AVX512(dst, x []float64, ld, i, rows, p, kc, r int) {
	packRowsWith(transposeF64AVX512, 8, dst, x, ld, i, rows, p, kc, r)
}

// packRowsWith packs rows with an assembly transpose of group rows by group
// columns at a time, for panels of a multiple of group rows: the pure-Go
// packing takes the columns left and a last panel of fewer rows.
func packRowsWith[E elem](transpose func(dst *E, r int, src *E, ld, blocks int), group int, dst, x []E, ld, i, rows, p, kc, r int) {
	whole := kc / group * group
	if r%group != 0 || whole == 0 {
		packRowsGo(dst, x, ld, i, rows, p, kc, r)
		return
	}
	full := rows / r
	for q := range full {
		first := i + q*r
		_ = x[(first+r-1)*ld+p+kc-1] // the transposes read within x
		panel := dst[q*r*kc:][:r*kc]
		for g := 0; g < r; g += group {
			transpose(&panel[g], r, &x[(first+g)*ld+p], ld, whole/group)
		}
		if whole < kc {
			packRowsGo(panel[whole*r:], x, ld, first, r, p+whole, kc-whole, r)
		}
	}
	if full*r < rows {
		packRowsGo(dst[full*r*kc:], x, ld, i+full*r, rows-full*r, p, kc, r)
	}
}

// A tileKernel writes the squared distances of rows consecutive rows of a
// (lda elements apart) to m rows of b (m a multiple of cols, ldb apart)
// into dst, whose rows are ldd apart: a's rows 0 apart repeat one row, and
// dst's rows 0 apart write its distances onto themselves.
type tileKernel func(dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int)

// sqDistsVec drives a tile kernel over blocks of rows by cols. Columns go
// in chunks whose rows of b stay in the core's cache while every row of a
// passes; a kernel call takes a few microseconds at most. Where the rows or
// columns are not a whole number of blocks, the last block overlaps the one
// before it (the pairs it computes again come out the same, to the bit).
// Fewer rows than a block go one at a time, the row repeated (0 apart) onto
// itself in dst; fewer columns than a block take the pure-Go kernel.
func sqDistsVec(kernel tileKernel, rows, cols int, dst, a, b []float32, n, m, k int) {
	if m < cols {
		sqDistsRect(dst, a, b, m, k, 0, n, 0, m)
		return
	}
	chunk := min(maxChunk, max(cols, (256<<10)/(4*k)/cols*cols))
	nv, mv := n-n%rows, m-m%cols
	for j0, width := 0, 0; j0 < m; j0 += width {
		width = min(chunk, mv-j0)
		if j0 >= mv { // the last columns: a whole block ending at m
			j0, width = m-cols, cols
		}
		if n < rows {
			for i := range n {
				tile(kernel, &dst[i*m+j0], 0, &a[i*k], 0, &b[j0*k], k, width, k)
			}
			continue
		}
		for i0 := 0; i0 < n; i0 += rows {
			if i0 >= nv { // the last rows: a whole block ending at n
				i0 = n - rows
			}
			tile(kernel, &dst[i0*m+j0], m, &a[i0*k], k, &b[j0*k], k, width, k)
		}
	}
}

// tile calls kernel from a function that the runtime can preempt the
// goroutine at, as it enters: the assembly cannot be, and the loops of
// sqDistsVec call nothing else, so a garbage collection would wait for
// the whole SqDists, milliseconds, rather than for one kernel call.
//
//go:noinline
func tile(kernel tileKernel, dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int) {
	kernel(dst, ldd, a, lda, b, ldb, m, k)
}

// The assembly kernels of products_avx512_amd64.s and products_avx2_amd64.s.

//go:noescape
func gemmF32AVX512(dst *float32, ldc int, a, b *float32, kc, panels, flags int)

//go:noescape
func gemmF64AVX512(dst *float64, ldc int, a, b *float64, kc, panels, flags int)

//go:noescape
func transposeF32AVX512(dst *float32, r int, src *float32, ld, blocks int)

//go:noescape
func transposeF64AVX512(dst *float64, r int, src *float64, ld, blocks int)

//go:noescape
func gemmF32AVX2(dst *float32, ldc int, a, b *float32, kc, panels, flags int)

//go:noescape
func gemmF64AVX2(dst *float64, ldc int, a, b *float64, kc, panels, flags int)

//go:noescape
func sqDistsF32AVX512(dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int)

//go:noescape
func sqDistsF32AVX2(dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int)
