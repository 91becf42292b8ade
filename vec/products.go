package vec

import (
	"github.com/godlpack/godlpack/internal/fmt"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/internal/preempt"
)

// Dots writes the dot product of every row of a with every row of b into
// dst, a row-major len(a)/k by len(b)/k matrix: dst[i*m+j] is the dot
// product of a's row i and b's row j, where a and b hold rows of k elements
// one after the other (dst = A·Bᵀ). As BLAS's sgemm and dgemm do, the sums
// accumulate in T: each element of dst is one chain of fused multiply-adds
// in the order of k, s = fma(a[i][p], b[j][p], s) from s = +0, which
// rounds k times: its error is at most γ·Σ|a[i][p]·b[j][p]| with
// γ = k·u/(1-k·u), about k·u (u is 2⁻²⁴ for float32 and 2⁻⁵³ for float64),
// relative for terms of one sign. It comes out the same to the bit on every
// path and on any count of goroutines ([ParallelDots]). NaN and infinities propagate as IEEE arithmetic has
// them (a NaN, or an infinity times a zero, makes the element NaN); dst's
// old values are never read. Rows of no elements (k = 0, a and b empty)
// have dot products 0: dst is zeroed. It panics if k is negative or does
// not divide len(a) and len(b), if dst's length is not the count of pairs,
// or if dst overlaps a or b.
//
// The work goes in blocks that the caches hold: packed copies of a's and
// b's blocks, in buffers that a sync.Pool keeps from one call to the next
// (a call allocates none unless garbage collections emptied the pool since
// the last), and kernel calls of a few microseconds each, between which the
// runtime can preempt the goroutine.
func Dots[T Float](dst, a, b []T, k int) {
	multiplyAs("Dots", dst, a, b, k, true, false)
}

// ParallelDots is [Dots] on up to [Threads] goroutines, the calling one
// among them, each writing whole tiles of dst, for products large enough
// ([Workers], a multiply-add counted as a byte): the same result to the
// bit, whatever the count.
func ParallelDots[T Float](dst, a, b []T, k int) {
	multiplyAs("ParallelDots", dst, a, b, k, true, true)
}

// MatMul writes the matrix product of a and b into dst: a is a row-major
// matrix of n rows of k elements, b one of k rows of m, and dst[i*m+j] is
// the sum over p of a[i*k+p]·b[p*m+j], with n = len(a)/k and
// m = len(b)/k. The sums accumulate in T as [Dots]'s do, with the same
// error bound, the same bits on every path and count of goroutines, and the
// same panics; with k = 0 (a and b empty) dst is zeroed.
func MatMul[T Float](dst, a, b []T, k int) {
	multiplyAs("MatMul", dst, a, b, k, false, false)
}

// ParallelMatMul is [MatMul] on up to [Threads] goroutines, split as
// [ParallelDots] is: the same result to the bit, whatever the count.
func ParallelMatMul[T Float](dst, a, b []T, k int) {
	multiplyAs("ParallelMatMul", dst, a, b, k, false, true)
}

// SqDists writes the squared Euclidean distance of every row of a to every
// row of b into dst, a row-major len(a)/k by len(b)/k matrix: dst[i*m+j] is
// the distance of a's row i to b's row j, where a and b hold rows of k
// elements one after the other. The sums accumulate in T, blocks of rows
// at a time in vector registers, as a matrix product does. Rows of no
// elements (k = 0, a and b empty) are all at distance 0: dst is zeroed. It
// panics if k is negative or does not divide len(a) and len(b), or if
// dst's length is not the count of pairs.
func SqDists[T Float](dst, a, b []T, k int) {
	n, m, ok := pairs("SqDists", "distances", dst, a, b, k)
	if !ok {
		return
	}
	if isFloat32[T]() {
		sqDistsF32Kernel(as[float32](dst), as[float32](a), as[float32](b), n, m, k)
	} else {
		sqDistsGo(as[float64](dst), as[float64](a), as[float64](b), n, m, k)
	}
}

// pairs checks the shapes of a product of a's rows of k elements with b's
// (what names its results) and returns the rows n of a and the columns m of
// dst; ok is false for rows of no elements (k = 0, a and b empty), whose
// dst it has zeroed.
func pairs[T Float](name, what string, dst, a, b []T, k int) (n, m int, ok bool) {
	if k == 0 && len(a) == 0 && len(b) == 0 {
		preempt.Clear(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(dst))), len(dst)*int(unsafe.Sizeof(T(0)))))
		return 0, 0, false
	}
	if k <= 0 || len(a)%k != 0 || len(b)%k != 0 {
		panic(fmt.Sprintf("vec.%s: k = %d for a of %d elements and b of %d", name, k, len(a), len(b)))
	}
	n, m = len(a)/k, len(b)/k
	if len(dst) != n*m {
		panic(fmt.Sprintf("vec.%s: %d by %d %s into %d elements", name, n, m, what, len(dst)))
	}
	return n, m, true
}

func multiplyAs[T Float](name string, dst, a, b []T, k int, bRows, parallel bool) {
	n, m, ok := pairs(name, "products", dst, a, b, k)
	if !ok {
		return
	}
	for _, in := range [2][]T{a, b} {
		if overlap(dst, in) {
			panic(fmt.Sprintf("vec.%s: dst overlaps an operand", name))
		}
	}
	if isFloat32[T]() {
		multiply(product[float32]{dst: as[float32](dst), a: as[float32](a), b: as[float32](b), n: n, m: m, k: k,
			bRows: bRows}, parallel)
	} else {
		multiply(product[float64]{dst: as[float64](dst), a: as[float64](a), b: as[float64](b), n: n, m: m, k: k,
			bRows: bRows}, parallel)
	}
}

func overlap[T Float](x, y []T) bool {
	if len(x) == 0 || len(y) == 0 {
		return false
	}
	size := unsafe.Sizeof(T(0))
	px, py := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))
	return px < py+uintptr(len(y))*size && py < px+uintptr(len(x))*size
}

// elem is the element types of the products' kernels.
type elem interface{ float32 | float64 }

// A product is one call's operands: dst, n rows of m, is a (n rows of k)
// times b, whose rows are the product's columns (bRows: m rows of k, as
// Dots has it) or its k rows of m (MatMul).
type product[E elem] struct {
	dst, a, b []E
	n, m, k   int
	bRows     bool
	// stream is whether the finished tiles are stored past the caches, and
	// lead the columns before the rows' first 64-byte boundary, where the
	// tiles then start (0 otherwise).
	stream bool
	lead   int
}

// streamBytes is the least dst that the products store past the caches,
// saving the reads of the lines they would write into: on this project's
// AMD EPYC, Dots into 2 MB took 2% longer streamed, into 4 MB 4% less, into
// the 25.6 MB of 64 by 100k float32 6% less. (Tests lower it.)
var streamBytes = 4 << 20

// The flags of a micro-kernel call.
const (
	accumulate   = 1 << iota // add the products to dst's tile, whose elements continue their chains
	streamStores             // store the tile past the caches (its rows 64-byte aligned)
)

// A microKernel computes panels tiles of mr rows by nr columns one under
// the other, dst's rows ldc elements apart: each tile is a panel of packed
// A (kc columns of mr elements, the panels one after the other) times the
// packed B panel (kc rows of nr elements), the tile's elements starting
// their chains at +0 or (accumulate) at dst's values.
type microKernel[E elem] func(dst *E, ldc int, a, b *E, kc, panels, flags int)

// A gemm is a path's matrix-product kernel for one element type and the
// blocks it works in (after BLIS and GotoBLAS): kc columns of a (rows of b)
// at a time, so that a packed B panel of nr columns stays in the L1 cache;
// mc rows of a packed in the L2 cache; nc columns of b packed in the L3
// cache. mc is a multiple of mr, nc of nr.
type gemm[E elem] struct {
	mr, nr, kc, mc, nc int
	kernel             microKernel[E]
	// packRows packs rows [i, i+rows) of x (rows ld apart), columns [p,
	// p+kc), in panels of r rows: dst[q*r*kc + c*r + ii] is x's element
	// (i + q*r + ii, p + c), 0 past the last row.
	packRows func(dst, x []E, ld, i, rows, p, kc, r int)
}

// productKernels is one path's matrix-product kernels and blocks, for
// float32 and float64: productsOn (products_amd64.go, products_arm64.go,
// products_other.go) returns the active path's.
type productKernels struct {
	f32 gemm[float32]
	f64 gemm[float64]
}

var productsGo = productKernels{
	f32: gemm[float32]{mr: 4, nr: 4, kc: 256, mc: 64, nc: 256, kernel: kernelGo[float32], packRows: packRowsGo[float32]},
	f64: gemm[float64]{mr: 4, nr: 4, kc: 256, mc: 64, nc: 256, kernel: kernelGo[float64], packRows: packRowsGo[float64]},
}

func gemmOf[E elem]() *gemm[E] {
	products := productsOn()
	if unsafe.Sizeof(E(0)) == 4 {
		return any(&products.f32).(*gemm[E])
	}
	return any(&products.f64).(*gemm[E])
}

// fmaBytes is the work of a multiply-add in the bytes that Workers sizes a
// split by: ParallelGrain's 8 MB is then 16 MFLOP, 70-130 us on one core,
// about what starting a goroutine costs on a busy machine. (Tests raise it
// to split small products.)
var fmaBytes = 1

// multiply runs the product on the calling goroutine or, parallel, on up to
// Workers goroutines, which take chunks of whole strips of tiles in turn
// (columns of nr, or rows of mr where those are more) until none is left.
// Where the operand that every strip needs is one packed block (the 64
// queries of a search), each goroutine packs it once and the chunks are
// small: a goroutine that starts late, as the operating system's other
// work delays it, takes fewer. Otherwise each goroutine takes one chunk,
// as many strips as another, and packs its part of that operand once.
func multiply[E elem](pr product[E], parallel bool) {
	if pr.n == 0 || pr.m == 0 {
		return
	}
	g := gemmOf[E]()
	size := int(unsafe.Sizeof(E(0)))
	if p := uintptr(unsafe.Pointer(&pr.dst[0])); len(pr.dst)*size >= streamBytes && pr.m*size%64 == 0 {
		// Every row starts as far from a 64-byte boundary as the first.
		pr.stream, pr.lead = true, int(-p&63)/size
	}
	strips, width, cost := (pr.m-pr.lead+g.nr-1)/g.nr, g.nr, pr.n*g.nr*pr.k*fmaBytes
	byRows := (pr.n+g.mr-1)/g.mr > strips
	shared := pr.n <= g.mc && pr.k <= g.kc // the block of a that every strip of columns needs
	if byRows {
		strips, width, cost = (pr.n+g.mr-1)/g.mr, g.mr, pr.m*g.mr*pr.k*fmaBytes
		shared = pr.m-pr.lead <= g.nc && pr.k <= g.kc
	}
	w := 1
	if parallel {
		w = Workers(strips, cost)
	}
	if w <= 1 {
		buf := getPanels(g, pr.n, pr.m, pr.k)
		pr.block(g, buf, 0, pr.n, 0, pr.m)
		pools[poolOf[E]()].Put(buf)
		return
	}
	chunks := w
	if shared {
		chunks = w * max(1, strips/(w*chunkStrips)) // as many for each goroutine, where none starts late
	}
	var next atomic.Int64
	work := pr // the closure's copy: pr itself stays on the stack of the calls above
	Parallel(w, cost*(strips/w), func(int, int) {
		buf := getPanels(g, work.n, work.m, work.k)
		defer pools[poolOf[E]()].Put(buf)
		for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
			lo, hi := c*strips/chunks, (c+1)*strips/chunks
			if byRows {
				work.block(g, buf, lo*width, min(hi*width, work.n), 0, work.m)
				continue
			}
			j0, j1 := work.lead+lo*width, min(work.lead+hi*width, work.m)
			if lo == 0 {
				j0 = 0
			}
			work.block(g, buf, 0, work.n, j0, j1)
		}
	})
}

// chunkStrips is the strips of a chunk where the goroutines take many:
// 8 strips of 16 columns of 64 queries of 128 float32 are 26 us of work.
const chunkStrips = 8

// block computes the rows [i0, i1) and columns [j0, j1) of the product:
// the columns before the product's lead on their own, then the tiles from
// there on.
func (pr *product[E]) block(g *gemm[E], buf *panels[E], i0, i1, j0, j1 int) {
	if j0 < pr.lead {
		end := min(pr.lead, j1)
		pr.run(g, buf, i0, i1, j0, end, false)
		j0 = end
	}
	if j0 < j1 {
		pr.run(g, buf, i0, i1, j0, j1, pr.stream)
	}
}

// run computes the rows [i0, i1) and columns [j0, j1) in blocks, storing
// the finished tiles past the caches where stream is set. A block of A or a
// panel of B that buf holds already, packed for an earlier block of the
// same product, is not packed again.
func (pr *product[E]) run(g *gemm[E], buf *panels[E], i0, i1, j0, j1 int, stream bool) {
	for jc := j0; jc < j1; jc += g.nc {
		nc := min(g.nc, j1-jc)
		for pc := 0; pc < pr.k; pc += g.kc {
			kc := min(g.kc, pr.k-pc)
			flags := 0
			if pc > 0 {
				flags = accumulate
			}
			if stream && pc+kc == pr.k {
				flags |= streamStores
			}
			packB := buf.bBlock != jc*pr.k+pc
			if packB && !pr.bRows { // b's rows read whole, as memory serves best
				packCols(buf.b, pr.b, pr.m, jc, nc, pc, kc, g.nr)
			}
			for ic := i0; ic < i1; ic += g.mc {
				mc := min(g.mc, i1-ic)
				if buf.aBlock != ic*pr.k+pc {
					g.packRows(buf.a, pr.a, pr.k, ic, mc, pc, kc, g.mr)
					buf.aBlock = ic*pr.k + pc
				}
				for jr := 0; jr < nc; jr += g.nr {
					cols := min(g.nr, nc-jr)
					bp := buf.b[jr*kc:][:g.nr*kc]
					if packB && pr.bRows && ic == i0 { // packed as the first rows need them, while in the cache
						g.packRows(bp, pr.b, pr.k, jc+jr, cols, pc, kc, g.nr)
					}
					pr.tiles(g, buf, ic, mc, jc+jr, cols, bp, kc, flags)
				}
			}
			buf.bBlock = jc*pr.k + pc
		}
	}
}

// tiles computes rows [i, i+rows) of the product's columns [j, j+cols)
// from the packed A block and B panel: whole tiles in one kernel call, the
// last rows and a panel of fewer than nr columns through a tile of buf's.
func (pr *product[E]) tiles(g *gemm[E], buf *panels[E], i, rows, j, cols int, bp []E, kc, flags int) {
	ldd := pr.m
	whole := rows / g.mr
	if cols < g.nr {
		whole = 0
	}
	if whole > 0 {
		callKernel(g.kernel, &pr.dst[i*ldd+j], ldd, &buf.a[0], &bp[0], kc, whole, flags)
	}
	t := buf.tile
	for q := whole; q*g.mr < rows; q++ {
		r := min(g.mr, rows-q*g.mr)
		d := pr.dst[(i+q*g.mr)*ldd+j:]
		if flags&accumulate != 0 {
			for ii := range r {
				copy(t[ii*g.nr:][:cols], d[ii*ldd:][:cols])
			}
		}
		callKernel(g.kernel, &t[0], g.nr, &buf.a[q*g.mr*kc], &bp[0], kc, 1, flags&accumulate)
		for ii := range r {
			copy(d[ii*ldd:][:cols], t[ii*g.nr:][:cols])
		}
	}
}

// callKernel calls kernel from a function that the runtime can preempt the
// goroutine at, as it enters: the assembly cannot be, and a call is a few
// microseconds at most (mc rows by nr columns by kc), so a garbage
// collection waits for one call rather than for the whole product.
//
//go:noinline
func callKernel[E elem](kernel microKernel[E], dst *E, ldc int, a, b *E, kc, panels, flags int) {
	kernel(dst, ldc, a, b, kc, panels, flags)
}

// panels are a goroutine's packing buffers: a block of A, a panel of B, and
// a tile for the edges. aBlock and bBlock say which of the product's blocks
// a and b hold, i*k + p and j*k + p for the first row i, column j and
// element p of k; -1 for none. (Within a product a block's first row or
// column and first p decide its size.)
type panels[E elem] struct {
	a, b, tile     []E
	aBlock, bBlock int
}

// pools keep the packing buffers between calls, one pool for each element
// type (poolOf): in steady state no call allocates any.
var pools [2]sync.Pool

func poolOf[E elem]() int { return int(unsafe.Sizeof(E(0)) / 8) }

// getPanels returns buffers for a product of n rows, m columns and k.
func getPanels[E elem](g *gemm[E], n, m, k int) *panels[E] {
	buf, _ := pools[poolOf[E]()].Get().(*panels[E])
	if buf == nil {
		buf = new(panels[E])
	}
	kc := min(g.kc, k)
	buf.a = grow(buf.a, roundUp(min(g.mc, n), g.mr)*kc, g.mc*g.kc)
	buf.b = grow(buf.b, roundUp(min(g.nc, m), g.nr)*kc, g.nc*g.kc)
	buf.tile = grow(buf.tile, g.mr*g.nr, g.mr*g.nr)
	buf.aBlock, buf.bBlock = -1, -1
	return buf
}

func roundUp(n, to int) int { return (n + to - 1) / to * to }

// grow returns x with length n, or a new slice where x's capacity is less,
// at least twice as large, up to full, the most any product needs: products
// of two shapes, one with the larger A and one with the larger B, would
// otherwise take turns to replace the pool's buffers. Its first element is
// 64-byte aligned, as the vector kernels load best.
func grow[E elem](x []E, n, full int) []E {
	if cap(x) >= n {
		return x[:n]
	}
	c := max(n, min(full, 2*cap(x)))
	size := int(unsafe.Sizeof(E(0)))
	x = make([]E, c+64/size)
	off := int(-uintptr(unsafe.Pointer(&x[0]))&63) / size
	return x[off : off+n : off+c]
}

func packRowsGo[E elem](dst, x []E, ld, i, rows, p, kc, r int) {
	for q := 0; q*r < rows; q++ {
		panel := dst[q*r*kc:][:r*kc]
		for ii := range r {
			if q*r+ii >= rows {
				for c := range kc {
					panel[c*r+ii] = 0
				}
				continue
			}
			for c, v := range x[(i+q*r+ii)*ld+p:][:kc] {
				panel[c*r+ii] = v
			}
		}
	}
}

// packCols packs columns [j, j+cols) of x's rows [p, p+kc) (rows ld apart)
// in panels of r columns: dst[q*r*kc + c*r + jj] is x's element (p + c,
// j + q*r + jj), 0 past the last column.
func packCols[E elem](dst, x []E, ld, j, cols, p, kc, r int) {
	for c := range kc {
		row := x[(p+c)*ld+j:][:cols]
		for q := 0; q*r < cols; q++ {
			out := dst[q*r*kc+c*r:][:r]
			clear(out[copy(out, row[q*r:]):])
		}
	}
}

// kernelGo is the pure-Go micro-kernel, of 4 by 4 tiles.
func kernelGo[E elem](dst *E, ldc int, a, b *E, kc, panels, flags int) {
	const mr, nr = 4, 4
	bp := unsafe.Slice(b, kc*nr)
	for q := range panels {
		ap := unsafe.Slice((*E)(unsafe.Add(unsafe.Pointer(a), q*mr*kc*int(unsafe.Sizeof(*a)))), kc*mr)
		d := unsafe.Slice((*E)(unsafe.Add(unsafe.Pointer(dst), q*mr*ldc*int(unsafe.Sizeof(*a)))), (mr-1)*ldc+nr)
		var s [mr][nr]E
		if flags&accumulate != 0 {
			for i := range mr {
				copy(s[i][:], d[i*ldc:][:nr])
			}
		}
		for c := range kc {
			av, bv := ap[c*mr:][:mr], bp[c*nr:][:nr]
			for i := range mr {
				for j := range nr {
					s[i][j] = fma(av[i], bv[j], s[i][j])
				}
			}
		}
		for i := range mr {
			copy(d[i*ldc:][:nr], s[i][:])
		}
	}
}

// maxChunk is the most columns a tile kernel call of a vector path takes.
const maxChunk = 1024

// sqDistsGo is [SqDists] in plain Go, accumulating in T.
func sqDistsGo[T Float](dst, a, b []T, n, m, k int) {
	sqDistsRect(dst, a, b, m, k, 0, n, 0, m)
}

// sqDistsRect writes the distances of a's rows [i0, i1) to b's rows [j0, j1) into dst, whose rows hold
// m distances.
func sqDistsRect[T Float](dst, a, b []T, m, k, i0, i1, j0, j1 int) {
	for i := i0; i < i1; i++ {
		row := a[i*k : i*k+k]
		for j := j0; j < j1; j++ {
			col := b[j*k : j*k+k]
			var s T
			for c, v := range row {
				d := v - col[c]
				s += d * d
			}
			dst[i*m+j] = s
		}
	}
}
