package vec

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

var inf32 = float32(math.Inf(1))
var negZero32 = float32(math.Copysign(0, -1))

// ranked returns the indexes of x's elements that are not NaN, best first
// (equal values by index): the order a TopK and ArgMax promise.
func ranked[T Number](x []T, smallest bool) []int64 {
	var idx []int64
	for i, v := range x {
		if v == v {
			idx = append(idx, int64(i))
		}
	}
	slices.SortFunc(idx, func(a, b int64) int {
		if c := cmp.Compare(x[a], x[b]); c != 0 && smallest {
			return c
		} else if c != 0 {
			return -c
		}
		return cmp.Compare(a, b)
	})
	return idx
}

// checkTop fails the test unless top holds the first k of ranking, the
// indexes of x's elements best first.
func checkTop[T Number](t *testing.T, what string, top *TopK[T], x []T, ranking []int64) {
	t.Helper()
	want := ranking[:min(top.K(), len(ranking))]
	if top.Len() != len(want) {
		t.Fatalf("%s: Len() = %d, want %d", what, top.Len(), len(want))
	}
	vals, idx := top.Sorted()
	if !slices.Equal(idx, want) {
		t.Fatalf("%s: indexes %v, want %v", what, idx, want)
	}
	for i, j := range idx {
		if vals[i] != x[j] {
			t.Fatalf("%s: value %v at %d, x[%d] = %v", what, vals[i], i, j, x[j])
		}
	}
}

func TestTopKCases(t *testing.T) {
	for _, c := range []struct {
		name string
		x    []float32
		k    int
	}{
		{"empty", nil, 3},
		{"k = 0", []float32{1, 2, 3}, 0},
		{"k > n", []float32{3, 1, 2}, 5},
		{"ties to the lower index", []float32{1, 5, 5, 2, 5, 1}, 2},
		{"all equal", []float32{7, 7, 7, 7, 7, 7, 7, 7, 7, 7}, 3},
		{"NaN never kept", []float32{nan32, 3, nan32, 1, nan32}, 3},
		{"all NaN", []float32{nan32, nan32, nan32}, 2},
		{"-0 equals +0", []float32{0, negZero32, 0, negZero32, -1, 1}, 4},
		{"infinities", []float32{-inf32, inf32, nan32, -inf32, inf32, 0}, 6},
		{"one", []float32{4}, 1},
	} {
		for _, smallest := range []bool{false, true} {
			eachPath(t, func(t *testing.T) {
				var top TopK[float32]
				if smallest {
					top.Smallest(c.k)
				} else {
					top.Largest(c.k)
				}
				top.Push(c.x, 0)
				checkTop(t, fmt.Sprintf("%s, smallest=%v", c.name, smallest), &top, c.x, ranked(c.x, smallest))
			})
		}
	}
}

// sample returns n random elements, each drawn from few distinct values
// where ties is set (so that ties and the threshold's equals are common),
// with a NaN in every 37 for floats.
func sample[T Number](r *rand.Rand, n int, ties bool) []T {
	x := make([]T, n)
	float := kindOf[T]() >= f32
	for i := range x {
		switch {
		case ties:
			x[i] = T(r.IntN(5))
		case float:
			x[i] = T(r.NormFloat64() * 100)
		default:
			x[i] = T(r.Uint64())
		}
		if float && r.IntN(37) == 0 {
			x[i] = T(math.NaN())
		}
	}
	return x
}

func testTopK[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 5, 17, 100, 1000, step + 77} {
		for _, ties := range []bool{false, true} {
			off := n % len(offsets) // one offset a length
			x := sample[T](r, n+off, ties)[off:]
			for _, smallest := range []bool{false, true} {
				ranking := ranked(x, smallest)
				for _, k := range []int{1, 3, 10, 100} {
					var top TopK[T]
					top.reset(k, smallest)
					top.Push(x, 0)
					checkTop(t, fmt.Sprintf("n=%d k=%d ties=%v off=%d smallest=%v", n, k, ties, off, smallest), &top, x, ranking)
				}
			}
		}
	}
}

func TestTopK(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testTopK[float32])
		t.Run("float64", testTopK[float64])
		t.Run("int32", testTopK[int32])
		t.Run("uint8", testTopK[uint8])
	})
}

// A slice split into tiles at random, the tiles pushed in a random order
// into TopKs of their own (a worker each) or one shared TopK, and the
// workers' merged in a random order: always the one-piece result.
func testTopKMergesAnySplit[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 40 {
		n, k := 1+r.IntN(3000), 1+r.IntN(40)
		ties, smallest := trial%2 == 0, trial%4 < 2
		x := sample[T](r, n, ties)
		cuts := []int{0, n}
		for range r.IntN(12) {
			cuts = append(cuts, r.IntN(n+1))
		}
		slices.Sort(cuts)
		order := r.Perm(len(cuts) - 1)
		var shared TopK[T]
		shared.reset(k, smallest)
		workers := make([]TopK[T], 1+r.IntN(4))
		for w := range workers {
			workers[w].reset(k, smallest)
		}
		for i, tile := range order {
			lo, hi := cuts[tile], cuts[tile+1]
			shared.Push(x[lo:hi], lo)
			workers[i%len(workers)].Push(x[lo:hi], lo)
			if r.IntN(3) == 0 { // Sorted between pushes changes nothing
				workers[i%len(workers)].Sorted()
			}
		}
		what := fmt.Sprintf("trial %d: n=%d k=%d cuts=%v order=%v", trial, n, k, cuts, order)
		ranking := ranked(x, smallest)
		checkTop(t, what+", one TopK", &shared, x, ranking)
		for _, w := range r.Perm(len(workers)) {
			workers[0].Merge(&workers[w]) // itself too, which changes nothing
		}
		checkTop(t, what+", merged", &workers[0], x, ranking)
	}
}

func TestTopKMergesAnySplit(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testTopKMergesAnySplit[float32])
		t.Run("float64", testTopKMergesAnySplit[float64])
		t.Run("int64", testTopKMergesAnySplit[int64])
	})
}

func TestTopKReuseAndPanics(t *testing.T) {
	var top TopK[float64]
	top.Push([]float64{1, 2}, 0) // the zero value keeps nothing
	if top.Len() != 0 || top.K() != 0 {
		t.Fatalf("zero TopK holds %d of %d", top.Len(), top.K())
	}
	top.Largest(2)
	top.Push([]float64{1, 3, 2}, 10)
	if v, i := top.Sorted(); !slices.Equal(v, []float64{3, 2}) || !slices.Equal(i, []int64{11, 12}) {
		t.Errorf("Sorted() = %v, %v", v, i)
	}
	top.Smallest(1)
	if top.Len() != 0 || top.K() != 1 {
		t.Errorf("after Smallest(1): holds %d of %d", top.Len(), top.K())
	}
	var other TopK[float64]
	other.Largest(1)
	other.Push([]float64{5}, 0)
	for name, f := range map[string]func(){
		"k < 0":             func() { top.Largest(-1) },
		"merge of an order": func() { top.Merge(&other) },
	} {
		if !panics(f) {
			t.Errorf("%s: no panic", name)
		}
	}
}

func TestTopKAllocatesNothing(t *testing.T) {
	x := sample[float32](rand.New(rand.NewPCG(7, 8)), 10000, false)
	var top, other TopK[float32]
	other.Largest(10)
	other.Push(x[:100], 0)
	eachPath(t, func(t *testing.T) {
		if n := testing.AllocsPerRun(10, func() {
			top.Largest(10)
			top.Push(x, 0)
			top.Merge(&other)
			top.Sorted()
			ArgMax(x)
		}); n != 0 {
			t.Errorf("%v allocations a run", n)
		}
	})
}

func TestArgMaxCases(t *testing.T) {
	for _, c := range []struct {
		name     string
		x        []float32
		max, min int
	}{
		{"empty", nil, -1, -1},
		{"all NaN", []float32{nan32, nan32}, -1, -1},
		{"NaN passed over", []float32{nan32, 2, nan32, 1, nan32}, 1, 3},
		{"ties to the first", []float32{1, 3, 0, 3, 0}, 1, 2},
		{"-0 equals +0", []float32{negZero32, 0, negZero32}, 0, 0},
		{"infinities only", []float32{nan32, -inf32, -inf32, nan32}, 1, 1},
		{"+inf", []float32{inf32, nan32, inf32}, 0, 0},
	} {
		eachPath(t, func(t *testing.T) {
			// The same cases inside a long slice of NaNs, where the vector kernels see them.
			long := make([]float32, 200)
			for i := range long {
				long[i] = nan32
			}
			copy(long[150:], c.x)
			for at, x := range map[int][]float32{0: c.x, 150: long} {
				if got, want := ArgMax(x), offsetOf(at, c.max); got != want {
					t.Errorf("%s: ArgMax = %d, want %d", c.name, got, want)
				}
				if got, want := ArgMin(x), offsetOf(at, c.min); got != want {
					t.Errorf("%s: ArgMin = %d, want %d", c.name, got, want)
				}
			}
		})
	}
}

// firstBest returns the index of x's first largest (or smallest) element
// that is not NaN, -1 if none.
func firstBest[T Number](x []T, smallest bool) int {
	best := -1
	for i, v := range x {
		if v == v && (best < 0 || (!smallest && v > x[best]) || (smallest && v < x[best])) {
			best = i
		}
	}
	return best
}

func testArgMax[T Number](t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range append(lengths, 3*step+5) {
		for _, off := range offsets {
			for _, ties := range []bool{false, true} {
				x := sample[T](r, n+off, ties)[off:]
				if got, want := ArgMax(x), firstBest(x, false); got != want {
					t.Fatalf("n=%d off=%d ties=%v: ArgMax = %d, want %d", n, off, ties, got, want)
				}
				if got, want := ArgMin(x), firstBest(x, true); got != want {
					t.Fatalf("n=%d off=%d ties=%v: ArgMin = %d, want %d", n, off, ties, got, want)
				}
			}
		}
	}
}

func TestArgMax(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testArgMax[float32])
		t.Run("float64", testArgMax[float64])
		t.Run("int16", testArgMax[int16])
		t.Run("uint64", testArgMax[uint64])
	})
}

// BenchmarkTopK is a top-10 and a top-100 of random float32 and float64,
// against one pass of Max over the same data: the scan's floor.
func BenchmarkTopK(b *testing.B) {
	saved := active
	defer func() { active = saved }()
	r := rand.New(rand.NewPCG(11, 12))
	x32 := sample[float32](r, 1<<20, false)
	x64 := sample[float64](r, 1<<20, false)
	for _, p := range paths {
		active = p
		for _, n := range []int{100_000, 1 << 20} {
			for _, k := range []int{10, 100} {
				var t32 TopK[float32]
				var t64 TopK[float64]
				b.Run(fmt.Sprintf("float32/%s/%d/k=%d", p, n, k), func(b *testing.B) {
					b.SetBytes(int64(4 * n))
					for range b.N {
						t32.Largest(k)
						t32.Push(x32[:n], 0)
						t32.Sorted()
					}
				})
				b.Run(fmt.Sprintf("float64/%s/%d/k=%d", p, n, k), func(b *testing.B) {
					b.SetBytes(int64(8 * n))
					for range b.N {
						t64.Largest(k)
						t64.Push(x64[:n], 0)
						t64.Sorted()
					}
				})
			}
			b.Run(fmt.Sprintf("max/float32/%s/%d", p, n), func(b *testing.B) {
				b.SetBytes(int64(4 * n))
				for range b.N {
					sink += float64(Max(x32[:n]))
				}
			})
		}
	}
}

func BenchmarkArgMax(b *testing.B) {
	benchPaths(b, "float32", func(b *testing.B, x []float32) { sink += float64(ArgMax(x)) })
	benchPaths(b, "float64", func(b *testing.B, x []float64) { sink += float64(ArgMax(x)) })
	benchPaths(b, "int32", func(b *testing.B, x []int32) { sink += float64(ArgMax(x)) })
}
