package vec

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// eachPath runs test once on every path this build and CPU have, the
// pure-Go one among them.
func eachPath(t *testing.T, test func(t *testing.T)) {
	eachPathOf(t, &active, paths, path.String, test)
}

// eachPathOf runs test once on every path of a job's, each made the active
// one in turn.
func eachPathOf[K any](t *testing.T, active *K, paths []K, name func(K) string, test func(t *testing.T)) {
	saved := *active
	defer func() { *active = saved }()
	for _, p := range paths {
		*active = p
		t.Run(name(p), test)
	}
}

// lengths cover the empty slice, lengths below one vector, odd lengths, the
// unrolled loops' edges, the reduction blocks' edges and the steps' edges.
var lengths = []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 257,
	1000, leaf - 1, leaf, leaf + 1, 3*leaf + 77, step + 3}

// offsets start slices off the allocation's alignment.
var offsets = []int{0, 1, 3}

func randomFloats[T Float](r *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		// Mixed magnitudes and signs, so that sums cancel: rounding errors show.
		x[i] = T(r.NormFloat64() * math.Ldexp(1, r.IntN(20)-10))
	}
	return x
}

func randomInts[T Integer](r *rand.Rand, n int) []T {
	x := make([]T, n)
	for i := range x {
		x[i] = T(r.Uint64())
	}
	return x
}

// exact returns the exact sum of terms(i) for i < n, rounded to float64 once, and the sum of the
// terms' magnitudes.
func exact(n int, term func(i int, z *big.Float) *big.Float) (sum, magnitude float64) {
	s, m := new(big.Float).SetPrec(4096), new(big.Float).SetPrec(4096)
	z := new(big.Float).SetPrec(4096)
	for i := range n {
		term(i, z)
		s.Add(s, z)
		m.Add(m, z.Abs(z))
	}
	sum, _ = s.Float64()
	magnitude, _ = m.Float64()
	return sum, magnitude
}

// within fails the test unless got is within ulps units of float64's last place times magnitude of want.
func within(t *testing.T, what string, got, want, magnitude, ulps float64) {
	t.Helper()
	if bound := ulps * 0x1p-53 * magnitude; math.Abs(got-want) > bound {
		t.Errorf("%s = %v, exact %v: error %g beyond %g", what, got, want, math.Abs(got-want), bound)
	}
}

// reductionULPs bounds the error of Sum's float32 additions and of Dot and SqDist: each vector lane adds
// up to a block's elements one after the other (the pure-Go path's four lanes the most), then the lanes
// and the blocks pairwise.
func reductionULPs(n int) float64 { return leaf/4 + 2*math.Log2(float64(n)+1) + 16 }

func testSum[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range lengths {
		for _, off := range offsets {
			x := randomFloats[T](r, n+off)[off:]
			want, mag := exact(n, func(i int, z *big.Float) *big.Float { return z.SetFloat64(float64(x[i])) })
			ulps := reductionULPs(n)
			if !isFloat32[T]() {
				ulps = 2*math.Log2(float64(n)+1) + 16 // compensated: no term grows with a lane's length
			}
			within(t, fmt.Sprintf("Sum of %d at +%d", n, off), Sum(x), want, mag, ulps)
			defer SetThreads(SetThreads(3))
			if got, want := ParallelSum(x), Sum(x); got != want {
				t.Errorf("ParallelSum of %d = %v, Sum %v", n, got, want)
			}
		}
	}
}

func TestSum(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testSum[float32])
		t.Run("float64", testSum[float64])
	})
}

// numpySum is NumPy's pairwise summation (numpy/_core/src/umath/loops_utils.h.src, pairwise_sum): blocks
// of up to 128 elements added in 8 accumulators, larger ones split in halves at a multiple of 8.
func numpySum(x []float64) float64 {
	switch n := len(x); {
	case n < 8:
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], x)
		i := 8
		for ; i < n-n%8; i += 8 {
			for j := range 8 {
				r[j] += x[i+j]
			}
		}
		s := (r[0] + r[1] + (r[2] + r[3])) + (r[4] + r[5] + (r[6] + r[7]))
		for ; i < n; i++ {
			s += x[i]
		}
		return s
	default:
		h := n / 2
		h -= h % 8
		return numpySum(x[:h]) + numpySum(x[h:])
	}
}

// TestSumBeatsNumPysPairwise sums ill-conditioned float64 data, large terms that cancel but for small
// ones, where the rounding of each addition shows: every path's error is at most that of NumPy's
// algorithm, or half a unit in the last place of the exact sum, which any result may be off by.
func TestSumBeatsNumPysPairwise(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(3, 4))
		for _, n := range []int{100, 1000, 100_000, 1 << 20} {
			x := make([]float64, n)
			for i := 0; i+1 < n; i += 2 {
				big := r.NormFloat64() * math.Ldexp(1, r.IntN(40))
				x[i], x[i+1] = big, -big+r.NormFloat64()
			}
			r.Shuffle(n, func(i, j int) { x[i], x[j] = x[j], x[i] })
			want, _ := exact(n, func(i int, z *big.Float) *big.Float { return z.SetFloat64(x[i]) })
			halfULP := math.Nextafter(math.Abs(want), math.Inf(1)) - math.Abs(want)
			ours, theirs := math.Abs(Sum(x)-want), math.Abs(numpySum(x)-want)
			if ours > max(theirs, halfULP/2) {
				t.Errorf("%d elements: error %g, NumPy's pairwise sum's %g", n, ours, theirs)
			}
			if theirs < 1000*halfULP {
				t.Errorf("%d elements: NumPy's pairwise sum is off by only %g: the data do not test", n, theirs)
			}
		}
	})
}

func testDot[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range lengths {
		for _, off := range offsets {
			x, y := randomFloats[T](r, n+off)[off:], randomFloats[T](r, n)
			want, mag := exact(n, func(i int, z *big.Float) *big.Float {
				return z.Mul(big.NewFloat(float64(x[i])), big.NewFloat(float64(y[i])))
			})
			within(t, fmt.Sprintf("Dot of %d at +%d", n, off), Dot(x, y), want, mag, reductionULPs(n))
			defer SetThreads(SetThreads(3))
			if got, want := ParallelDot(x, y), Dot(x, y); got != want {
				t.Errorf("ParallelDot of %d = %v, Dot %v", n, got, want)
			}
			want, mag = exact(n, func(i int, z *big.Float) *big.Float {
				d := new(big.Float).Sub(big.NewFloat(float64(x[i])), big.NewFloat(float64(y[i])))
				return z.Mul(d, d)
			})
			// A float64 difference is rounded once before it is squared: two units more.
			ulps := reductionULPs(n)
			if !isFloat32[T]() {
				ulps += 2
			}
			within(t, fmt.Sprintf("SqDist of %d at +%d", n, off), SqDist(x, y), want, mag, ulps)
		}
	}
}

func TestDotAndSqDist(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testDot[float32])
		t.Run("float64", testDot[float64])
	})
}

func testSumInt[T Integer](t *testing.T, sum func([]T) uint64) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range lengths {
		for _, off := range offsets {
			x := randomInts[T](r, n+off)[off:]
			var want uint64
			for _, v := range x {
				want += uint64(int64(v)) // sign- or zero-extended, then wrapping
			}
			if got := sum(x); got != want {
				t.Errorf("sum of %d %T at +%d = %d, want %d", n, x[0], off, got, want)
			}
		}
	}
	// Extremes: every element the most negative, then the largest.
	for _, fill := range []T{T(0) - 1, T(1) << (8*unsafe.Sizeof(T(0)) - 1), ^(T(1) << (8*unsafe.Sizeof(T(0)) - 1))} {
		x := make([]T, 3*leaf+5)
		for i := range x {
			x[i] = fill
		}
		if got, want := sum(x), uint64(int64(fill))*uint64(len(x)); got != want {
			t.Errorf("sum of %d times %d = %d, want %d", len(x), fill, got, want)
		}
	}
}

func TestSumInt(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("int8", func(t *testing.T) { testSumInt(t, func(x []int8) uint64 { return uint64(SumInt(x)) }) })
		t.Run("int16", func(t *testing.T) { testSumInt(t, func(x []int16) uint64 { return uint64(SumInt(x)) }) })
		t.Run("int32", func(t *testing.T) { testSumInt(t, func(x []int32) uint64 { return uint64(SumInt(x)) }) })
		t.Run("int64", func(t *testing.T) { testSumInt(t, func(x []int64) uint64 { return uint64(SumInt(x)) }) })
		t.Run("int", func(t *testing.T) { testSumInt(t, func(x []int) uint64 { return uint64(SumInt(x)) }) })
		t.Run("uint8", func(t *testing.T) { testSumInt(t, SumUint[uint8]) })
		t.Run("uint16", func(t *testing.T) { testSumInt(t, SumUint[uint16]) })
		t.Run("uint32", func(t *testing.T) { testSumInt(t, SumUint[uint32]) })
		t.Run("uint64", func(t *testing.T) { testSumInt(t, SumUint[uint64]) })
		t.Run("uintptr", func(t *testing.T) { testSumInt(t, SumUint[uintptr]) })
	})
}

// sameBits reports whether x and y hold the same bits (a NaN equals itself, -0 differs from +0).
func sameBits[T any](x, y []T) bool {
	size := int(unsafe.Sizeof(*new(T))) * len(x)
	return len(x) == len(y) && string(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(x))), size)) ==
		string(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(y))), size))
}

func floatsWithSpecials[T Float](r *rand.Rand, n int) []T {
	x := randomFloats[T](r, n)
	specials := []T{T(math.Inf(1)), T(math.Inf(-1)), T(math.Copysign(0, -1)), 0, T(math.SmallestNonzeroFloat64),
		T(math.MaxFloat32), 1e-40}
	for i := 0; i < n; i += 7 {
		x[i] = specials[i%len(specials)]
	}
	return x
}

func testExtremes[T Number](t *testing.T, random func(r *rand.Rand, n int) []T) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range lengths[1:] {
		for _, off := range offsets {
			x := random(r, n+off)[off:]
			if got, want := Min(x), slices.Min(x); got != want {
				t.Errorf("Min of %d %T at +%d = %v, want %v", n, got, off, got, want)
			}
			if got, want := Max(x), slices.Max(x); got != want {
				t.Errorf("Max of %d %T at +%d = %v, want %v", n, got, off, got, want)
			}
		}
	}
}

// testExtremesAt puts the extreme at each position of slices that start anywhere in a 64-byte line:
// in the heads and tails that the AVX-512 kernels take under a mask, and next to them.
func testExtremesAt[T Number](t *testing.T, low, high T) {
	mem := make([]T, 256+64)
	for _, n := range []int{1, 2, 7, 17, 64, 100, 130} {
		for off := range 64 / int(unsafe.Sizeof(low)) {
			x := mem[off : off+n]
			for at := range n {
				for i := range x {
					x[i] = T(i%3 + 10)
				}
				x[at] = high
				if got := Max(x); got != high {
					t.Fatalf("Max of %d %T at +%d, %v at %d: %v", n, got, off, high, at, got)
				}
				x[at] = low
				if got := Min(x); got != low {
					t.Fatalf("Min of %d %T at +%d, %v at %d: %v", n, got, off, low, at, got)
				}
			}
		}
	}
}

func TestMinMax(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", func(t *testing.T) { testExtremes(t, floatsWithSpecials[float32]) })
		t.Run("float64", func(t *testing.T) { testExtremes(t, floatsWithSpecials[float64]) })
		t.Run("int8", func(t *testing.T) { testExtremes(t, randomInts[int8]) })
		t.Run("uint8", func(t *testing.T) { testExtremes(t, randomInts[uint8]) })
		t.Run("int16", func(t *testing.T) { testExtremes(t, randomInts[int16]) })
		t.Run("uint16", func(t *testing.T) { testExtremes(t, randomInts[uint16]) })
		t.Run("int32", func(t *testing.T) { testExtremes(t, randomInts[int32]) })
		t.Run("uint32", func(t *testing.T) { testExtremes(t, randomInts[uint32]) })
		t.Run("int64", func(t *testing.T) { testExtremes(t, randomInts[int64]) })
		t.Run("uint64", func(t *testing.T) { testExtremes(t, randomInts[uint64]) })
		t.Run("edges", func(t *testing.T) {
			testExtremesAt[float32](t, -1e30, 1e30)
			testExtremesAt[float64](t, math.Inf(-1), math.Inf(1))
			testExtremesAt[int8](t, -128, 127)
			testExtremesAt[uint16](t, 0, 65535)
			testExtremesAt[int64](t, math.MinInt64, math.MaxInt64)
		})
		t.Run("NaN", func(t *testing.T) {
			for _, n := range lengths[1:] {
				for _, at := range []int{0, n / 2, n - 1} {
					x := make([]float32, n)
					x[at] = float32(math.NaN())
					y := make([]float64, n)
					y[at] = math.NaN()
					if !math.IsNaN(float64(Min(x))) || !math.IsNaN(float64(Max(x))) || !math.IsNaN(Min(y)) ||
						!math.IsNaN(Max(y)) {
						t.Errorf("a NaN at %d of %d is lost", at, n)
					}
				}
			}
			// Every place of a slice with a head, four-vector turns, single vectors and a tail, 16 bytes off
			// a boundary: the kernels compare vectors for NaN in pairs.
			x := make([]float32, 4+300)[4:]
			for at := range x {
				x[at] = float32(math.NaN())
				if !math.IsNaN(float64(Min(x))) || !math.IsNaN(float64(Max(x))) {
					t.Fatalf("a NaN at %d of %d is lost", at, len(x))
				}
				x[at] = 0
			}
		})
	})
}

func TestEmptyAndMismatchedPanic(t *testing.T) {
	for name, f := range map[string]func(){
		"Min":     func() { Min([]int32{}) },
		"Max":     func() { Max([]float64(nil)) },
		"Dot":     func() { Dot([]float32{1}, []float32{1, 2}) },
		"SqDist":  func() { SqDist([]float64{1}, nil) },
		"Axpy":    func() { Axpy([]float32{1}, 2, []float32{1, 2}) },
		"SqDists": func() { SqDists(make([]float32, 3), make([]float32, 4), make([]float32, 4), 2) },
		"k":       func() { SqDists(make([]float32, 1), make([]float32, 3), make([]float32, 4), 2) },
		"k=0":     func() { SqDists(make([]float32, 1), make([]float32, 3), nil, 0) },
	} {
		if !panics(f) {
			t.Errorf("%s did not panic", name)
		}
	}
}

// panics reports whether f panics.
func panics(f func()) (did bool) {
	defer func() { did = recover() != nil }()
	f()
	return false
}

func TestNoAllocations(t *testing.T) {
	x32, y32 := make([]float32, 3*leaf+5), make([]float32, 3*leaf+5)
	x64 := make([]float64, 3*leaf+5)
	i32 := make([]int32, 1000)
	d := make([]float32, 16)
	eachPath(t, func(t *testing.T) {
		for name, f := range map[string]func(){
			"Sum":     func() { Sum(x32); Sum(x64) },
			"Dot":     func() { Dot(x32, y32); SqDist(x32, y32) },
			"SumInt":  func() { SumInt(i32) },
			"Scale":   func() { Scale(x32, 1); Scale(i32, 1) },
			"Axpy":    func() { Axpy(x32, 0, y32) },
			"MinMax":  func() { Min(x64); Max(i32) },
			"SqDists": func() { SqDists(d, x32[:64], y32[:64], 16); SqDists(d[:5], x32[:3], y32[:15], 3) },
		} {
			if n := testing.AllocsPerRun(10, f); n != 0 {
				t.Errorf("%s: %v allocations", name, n)
			}
		}
	})
}

// TestPrefetch gives Prefetch slices of every kind: it must leave them as they were, whatever their
// length, element and alignment, and allocate nothing.
func TestPrefetch(t *testing.T) {
	b := make([]byte, 3*prefetchStep+100)
	for i := range b {
		b[i] = byte(i)
	}
	want := slices.Clone(b)
	type pair struct{ a, b int32 }
	ps := make([]pair, 1000)
	if n := testing.AllocsPerRun(10, func() {
		Prefetch[float32](nil)
		Prefetch(b[:0])
		Prefetch(b[1:2])
		Prefetch(b[63:65])
		Prefetch(b[5:])
		Prefetch(as[float32](b[:len(b)/4*4]))
		Prefetch(ps[1:])
		Prefetch(make([]struct{}, 10))
	}); n != 0 {
		t.Errorf("%v allocations a call", n)
	}
	if !slices.Equal(b, want) {
		t.Error("Prefetch changed the slice")
	}
}
