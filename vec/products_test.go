package vec

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// eachProductPath runs test on every matrix-product path, with its own
// blocks and with blocks so small that every loop's edges show in small
// products.
func eachProductPath(t *testing.T, test func(t *testing.T)) {
	saved := active
	defer func() { active = saved }()
	for _, p := range paths {
		active = p
		t.Run(p.String(), test)
		func() {
			blocks := productsOn()
			full := *blocks
			defer func() { *blocks = full }()
			blocks.f32.kc, blocks.f32.mc, blocks.f32.nc = 5, 2*full.f32.mr, 3*full.f32.nr
			blocks.f64.kc, blocks.f64.mc, blocks.f64.nc = 3, full.f64.mr, 2*full.f64.nr
			t.Run(p.String()+"-small-blocks", test)
		}()
	}
}

// reference is the definition of the products: each element one chain of
// fused multiply-adds in the order of k, from +0.
func reference[T Float](a, b []T, n, m, k int, bRows bool) []T {
	dst := make([]T, n*m)
	for i := range n {
		for j := range m {
			var s T
			for p := range k {
				y := b[p*m+j]
				if bRows {
					y = b[j*k+p]
				}
				if isFloat32[T]() {
					s = T(fmaf(float32(a[i*k+p]), float32(y), float32(s)))
				} else {
					s = T(math.FMA(float64(a[i*k+p]), float64(y), float64(s)))
				}
			}
			dst[i*m+j] = s
		}
	}
	return dst
}

// sameFloats reports whether x and y hold the same bits, any NaN the same as any other.
func sameFloats[T Float](x, y []T) (int, bool) {
	for i := range x {
		if x[i] != y[i] && !(x[i] != x[i] && y[i] != y[i]) || x[i] == 0 && math.Signbit(float64(x[i])) != math.Signbit(float64(y[i])) {
			return i, false
		}
	}
	return 0, len(x) == len(y)
}

// productShapes are n, m and k: below a tile, at a tile, one past, odd, and
// beyond the blocks of k (the pure-Go path's 256, AVX2's).
var productShapes = [][3]int{
	{1, 1, 1}, {1, 1, 17}, {2, 3, 4}, {3, 5, 7}, {4, 4, 4}, {5, 1, 9}, {1, 40, 3}, {6, 16, 16}, {7, 17, 15},
	{16, 16, 16}, {17, 33, 31}, {16, 8, 100}, {33, 9, 64}, {9, 70, 260}, {40, 50, 33}, {64, 48, 128},
}

// productBound is the bound of the error of a chain of k fused multiply-adds, in units of float64's last
// place of the sum of the terms' magnitudes: γ = k·u/(1-k·u), u the unit roundoff of T.
func productBound[T Float](k int) float64 {
	u := 0x1p-53
	if isFloat32[T]() {
		u = 0x1p-24
	}
	return float64(k) * u / (1 - float64(k)*u) / 0x1p-53
}

func testProducts[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, bRows := range []bool{true, false} {
		name, f := "MatMul", MatMul[T]
		if bRows {
			name, f = "Dots", Dots[T]
		}
		for _, s := range productShapes {
			n, m, k := s[0], s[1], s[2]
			off := r.IntN(3) // slices off the allocation's alignment
			a := randomFloats[T](r, n*k+off)[off:]
			b := randomFloats[T](r, m*k+1)[1:]
			mem := randomFloats[T](r, n*m+off+1)
			dst := mem[off : off+n*m]
			guard := slices.Clone(mem)
			f(dst, a, b, k)
			want := reference(a, b, n, m, k, bRows)
			if i, ok := sameFloats(dst, want); !ok {
				t.Fatalf("%s %dx%d by %d: [%d] = %v, want %v", name, n, m, k, i, dst[i], want[i])
			}
			if mem[off+n*m] != guard[off+n*m] || !sameBits(mem[:off], guard[:off]) {
				t.Fatalf("%s %dx%d by %d wrote outside dst", name, n, m, k)
			}
			// The definition is within its bound of the exact dot products (sampled).
			for range 3 {
				i, j := r.IntN(n), r.IntN(m)
				exactSum, mag := exact(k, func(p int, z *big.Float) *big.Float {
					y := b[p*m+j]
					if bRows {
						y = b[j*k+p]
					}
					return z.Mul(big.NewFloat(float64(a[i*k+p])), big.NewFloat(float64(y)))
				})
				within(t, fmt.Sprintf("%s %dx%d by %d [%d,%d]", name, n, m, k, i, j), float64(dst[i*m+j]), exactSum,
					mag, productBound[T](k))
			}
		}
	}
}

func TestProducts(t *testing.T) {
	eachProductPath(t, func(t *testing.T) {
		t.Run("float32", testProducts[float32])
		t.Run("float64", testProducts[float64])
	})
}

// TestProductsSpecials: NaN and infinities propagate as the chain's IEEE arithmetic has them, whatever dst
// held before.
func TestProductsSpecials(t *testing.T) {
	const n, m, k = 19, 21, 37
	r := rand.New(rand.NewPCG(23, 24))
	eachProductPath(t, func(t *testing.T) {
		a, b := floatsWithSpecials[float32](r, n*k), floatsWithSpecials[float32](r, m*k)
		a[5*k+3] = float32(math.NaN())
		b[2] = float32(math.Inf(1))
		for _, bRows := range []bool{true, false} {
			dst := make([]float32, n*m)
			for i := range dst {
				dst[i] = float32(math.NaN())
			}
			if bRows {
				Dots(dst, a, b, k)
			} else {
				MatMul(dst, a, b, k)
			}
			if i, ok := sameFloats(dst, reference(a, b, n, m, k, bRows)); !ok {
				t.Fatalf("rows of %v: [%d] = %v, want %v", bRows, i, dst[i], reference(a, b, n, m, k, bRows)[i])
			}
			for j := range m {
				if !math.IsNaN(float64(dst[5*m+j])) {
					t.Fatalf("a NaN in a's row 5 is lost at column %d: %v", j, dst[5*m+j])
				}
			}
		}
	})
}

// TestProductsThreads: every count of goroutines gives the same bits as the calling goroutine alone, split
// by columns or by rows, in small chunks (where every strip needs one packed block) or one for each
// goroutine, streamed past the caches or not.
func TestProductsThreads(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	defer SetThreads(SetThreads(1))
	defer func(saved, streamed int) { fmaBytes, streamBytes = saved, streamed }(fmaBytes, streamBytes)
	fmaBytes = ParallelGrain // any product is worth every goroutine
	eachProductPath(t, func(t *testing.T) {
		for _, s := range [][4]int{{37, 400, 40, 0}, {400, 96, 33, 0}, {70, 60, 300, 0}, {400, 96, 17, 1}, {9, 400, 20, 1}} {
			n, m, k := s[0], s[1], s[2]
			if s[3] == 1 {
				streamBytes = 0
			} else {
				streamBytes = 1 << 62
			}
			SetThreads(1)
			a, b := randomFloats[float32](r, n*k), randomFloats[float32](r, m*k)
			want, got := make([]float32, n*m), make([]float32, n*m)
			Dots(want, a, b, k)
			for _, threads := range []int{2, 3} {
				SetThreads(threads)
				clear(got)
				ParallelDots(got, a, b, k)
				if i, ok := sameFloats(got, want); !ok {
					t.Errorf("ParallelDots %dx%d by %d on %d: [%d] = %v, want %v", n, m, k, threads, i, got[i], want[i])
				}
			}
			a64, b64 := randomFloats[float64](r, n*k), randomFloats[float64](r, k*m)
			want64, got64 := make([]float64, n*m), make([]float64, n*m)
			MatMul(want64, a64, b64, k)
			ParallelMatMul(got64, a64, b64, k)
			if i, ok := sameFloats(got64, want64); !ok {
				t.Errorf("ParallelMatMul %dx%d by %d: [%d] = %v, want %v", n, m, k, i, got64[i], want64[i])
			}
		}
	})
}

// TestProductsStreaming stores every product past the caches, with dst at every offset from a 64-byte
// boundary: the columns before the boundary go on their own, and nothing outside dst is written.
func TestProductsStreaming(t *testing.T) {
	defer func(saved int) { streamBytes = saved }(streamBytes)
	streamBytes = 0
	r := rand.New(rand.NewPCG(29, 30))
	eachProductPath(t, func(t *testing.T) {
		for _, s := range [][3]int{{5, 48, 9}, {19, 64, 33}, {3, 16, 300}} {
			n, m, k := s[0], s[1], s[2]
			a, b := randomFloats[float32](r, n*k), randomFloats[float32](r, m*k)
			a64, b64 := randomFloats[float64](r, n*k), randomFloats[float64](r, m*k)
			want, want64 := reference(a, b, n, m, k, true), reference(a64, b64, n, m, k, false)
			for off := range 16 {
				mem, mem64 := make([]float32, n*m+32), make([]float64, n*m+16)
				dst, dst64 := mem[off:off+n*m], mem64[off/2:off/2+n*m]
				Dots(dst, a, b, k)
				MatMul(dst64, a64, b64, k)
				if i, ok := sameFloats(dst, want); !ok {
					t.Fatalf("Dots %dx%d by %d at +%d: [%d] = %v, want %v", n, m, k, off, i, dst[i], want[i])
				}
				if i, ok := sameFloats(dst64, want64); !ok {
					t.Fatalf("MatMul %dx%d by %d at +%d: [%d] = %v, want %v", n, m, k, off/2, i, dst64[i], want64[i])
				}
				if slices.ContainsFunc(mem[:off], isNonzero) || slices.ContainsFunc(mem[off+n*m:], isNonzero) ||
					slices.ContainsFunc(mem64[:off/2], isNonzero) || slices.ContainsFunc(mem64[off/2+n*m:], isNonzero) {
					t.Fatalf("%dx%d by %d at +%d: written outside dst", n, m, k, off)
				}
			}
		}
	})
}

func isNonzero[T Float](x T) bool { return x != 0 }

func TestProductsEdges(t *testing.T) {
	dst := []float64{1, 2, 3}
	if Dots(dst, nil, nil, 0); dst[0] != 0 || dst[2] != 0 {
		t.Errorf("Dots of rows of no elements: %v, want zeros", dst)
	}
	dst = []float64{1, 2}
	if MatMul(dst, nil, nil, 0); dst[0] != 0 || dst[1] != 0 {
		t.Errorf("MatMul with k = 0: %v, want zeros", dst)
	}
	MatMul([]float32{}, nil, make([]float32, 6), 3) // no rows of a: nothing to write
	Dots([]float32{}, make([]float32, 6), nil, 2)
	shared := make([]float32, 12)
	for name, f := range map[string]func(){
		"k":       func() { Dots(make([]float32, 1), make([]float32, 3), make([]float32, 4), 2) },
		"k=0":     func() { MatMul(make([]float32, 1), make([]float32, 3), nil, 0) },
		"k<0":     func() { ParallelDots(make([]float32, 1), make([]float32, 2), make([]float32, 2), -2) },
		"dst":     func() { ParallelMatMul(make([]float64, 3), make([]float64, 4), make([]float64, 4), 2) },
		"overlap": func() { Dots(shared[:4], shared[2:6], shared[8:], 2) },
		"alias":   func() { MatMul(shared[:4], shared[:4], shared[4:8], 2) },
	} {
		if !panics(f) {
			t.Errorf("%s did not panic", name)
		}
	}
}

func TestProductsNoAllocations(t *testing.T) {
	const n, m, k = 40, 50, 300
	a, b, dst := make([]float32, n*k), make([]float32, m*k), make([]float32, n*m)
	a64, b64, dst64 := make([]float64, n*k), make([]float64, m*k), make([]float64, n*m)
	eachProductPath(t, func(t *testing.T) {
		if allocs := testing.AllocsPerRun(5, func() {
			Dots(dst, a, b, k)
			MatMul(dst64, a64, b64, k)
			ParallelDots(dst, a, b, k) // too small to split
		}); allocs != 0 {
			t.Errorf("%v allocations", allocs)
		}
	})
}

// TestFMA32 holds the pure-Go float32 fused multiply-add to the exact result rounded once, on random
// operands, on sums that cancel, and on small addends that decide a rounding.
func TestFMA32(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	exactFMA := func(x, y, z float32) float32 {
		p := new(big.Float).SetPrec(1000).Mul(big.NewFloat(float64(x)), big.NewFloat(float64(y)))
		f, _ := p.Add(p, big.NewFloat(float64(z))).Float32()
		return f
	}
	random := func() float32 {
		return float32(r.NormFloat64() * math.Ldexp(1, r.IntN(120)-60))
	}
	for i := range 30000 {
		x, y := random(), random()
		var z float32
		switch i % 4 {
		case 0:
			z = random()
		case 1: // cancels: the product's leading bits go
			z = -float32(float64(x) * float64(y) * (1 + r.NormFloat64()*0x1p-20))
		case 2: // a sticky bit below float32's rounding point
			z = float32(float64(x) * float64(y) * r.NormFloat64() * 0x1p-40)
		case 3: // results near float32's smallest numbers
			x, y = float32(r.NormFloat64()*0x1p-70), float32(r.NormFloat64()*0x1p-62)
			z = float32(r.NormFloat64() * 0x1p-135)
		}
		if got, want := fmaf(x, y, z), exactFMA(x, y, z); math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("fmaf(%g, %g, %g) = %g, want %g", x, y, z, got, want)
		}
	}
	// A product one half unit above a float32 and a tiny addend: double rounding through float64 would tie.
	x, y := float32(1+0x1p-12), float32(1+0x1p-12) // 1 + 2⁻¹¹ + 2⁻²⁴: a tie between two float32s
	for _, z := range []float32{0x1p-60, -0x1p-60} {
		if got, want := fmaf(x, y, z), exactFMA(x, y, z); got != want {
			t.Errorf("fmaf(%g, %g, %g) = %g, want %g", x, y, z, got, want)
		}
	}
	inf := float32(math.Inf(1))
	for _, c := range [][4]float32{{inf, 1, 1, inf}, {inf, -1, inf, float32(math.NaN())}, {1, 1, -inf, -inf},
		{0, inf, 1, float32(math.NaN())}, {-1, 0, 0, 0}, {-1, 0, float32(math.Copysign(0, -1)), float32(math.Copysign(0, -1))}} {
		got := fmaf(c[0], c[1], c[2])
		if math.Float32bits(got) != math.Float32bits(c[3]) && !(got != got && c[3] != c[3]) {
			t.Errorf("fmaf(%g, %g, %g) = %g, want %g", c[0], c[1], c[2], got, c[3])
		}
	}
}

func testSqDists[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	zeroed := []T{1, 2, 3}
	if SqDists(zeroed, nil, nil, 0); zeroed[0] != 0 || zeroed[2] != 0 {
		t.Errorf("rows of no elements: %v, want zeros", zeroed)
	}
	for _, k := range []int{1, 3, 8, 15, 16, 17, 33, 64, 100} {
		for _, n := range []int{1, 2, 3, 4, 5, 9} {
			for _, m := range []int{1, 3, 4, 7, 8, 13, maxChunk + 6} {
				if m > maxChunk && (k > 8 || n > 5) {
					continue // the chunks of columns: a few small cases suffice
				}
				a, b := randomFloats[T](r, n*k), randomFloats[T](r, m*k)
				dst := make([]T, n*m+1)
				dst[n*m] = 42 // a guard: nothing past the matrix is written
				SqDists(dst[:n*m], a, b, k)
				for i := range n {
					for j := range m {
						want, mag := exact(k, func(c int, z *big.Float) *big.Float {
							d := new(big.Float).Sub(big.NewFloat(float64(a[i*k+c])), big.NewFloat(float64(b[j*k+c])))
							return z.Mul(d, d)
						})
						// Accumulated in T: up to k roundings of T's precision, and the rounding of each difference.
						ulps := float64(k+4) * 2
						if isFloat32[T]() {
							ulps *= 1 << 29
						}
						within(t, fmt.Sprintf("SqDists %dx%d by %dx%d [%d,%d]", n, k, m, k, i, j),
							float64(dst[i*m+j]), want, mag, ulps)
					}
				}
				if dst[n*m] != 42 {
					t.Fatalf("SqDists %dx%d by %dx%d wrote past the matrix", n, k, m, k)
				}
			}
		}
	}
}

func TestSqDists(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testSqDists[float32])
		t.Run("float64", testSqDists[float64])
	})
}

// BenchmarkProducts times issue 49's products on the calling goroutine: the
// dot products of 64 queries with 100k rows of 128 float32, and 1000-square
// products.
func BenchmarkProducts(b *testing.B) {
	for _, c := range []struct {
		name    string
		n, m, k int
		f32     func(dst, a, b []float32, k int)
		f64     func(dst, a, b []float64, k int)
	}{
		{"Dots/64x100000x128/float32", 64, 100_000, 128, Dots[float32], nil},
		{"Dots/1000x1000x1000/float32", 1000, 1000, 1000, Dots[float32], nil},
		{"MatMul/1000x1000x1000/float32", 1000, 1000, 1000, MatMul[float32], nil},
		{"MatMul/1000x1000x1000/float64", 1000, 1000, 1000, nil, MatMul[float64]},
	} {
		b.Run(c.name, func(b *testing.B) {
			if c.f32 != nil {
				x, y, dst := make([]float32, c.n*c.k), make([]float32, c.m*c.k), make([]float32, c.n*c.m)
				for b.Loop() {
					c.f32(dst, x, y, c.k)
				}
			} else {
				x, y, dst := make([]float64, c.n*c.k), make([]float64, c.m*c.k), make([]float64, c.n*c.m)
				for b.Loop() {
					c.f64(dst, x, y, c.k)
				}
			}
			b.ReportMetric(2*float64(c.n)*float64(c.m)*float64(c.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

func BenchmarkSqDists(b *testing.B) {
	saved := active
	defer func() { active = saved }()
	const n, k = 1000, 64
	a := make([]float32, n*k)
	for i := range a {
		a[i] = float32(i%13) / 7
	}
	dst := make([]float32, n*n)
	for _, p := range paths {
		active = p
		b.Run(p.String(), func(b *testing.B) {
			for range b.N {
				SqDists(dst, a, a, k)
			}
		})
	}
}
