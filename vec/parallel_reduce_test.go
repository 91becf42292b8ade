package vec

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func TestWorkersByCost(t *testing.T) {
	defer SetThreads(SetThreads(4))
	for _, c := range []struct {
		n         int
		itemNanos float64
		want      int
	}{
		{0, 1e9, 1}, {1, 1e9, 1}, {3, 1e9, 3}, {100, 1e9, 4}, {100, 0, 1}, {100, -1, 1}, {100, math.NaN(), 1},
		{1000, 2 * CostGrain / 1000, 2}, {1000, 2*CostGrain/1000 - 1, 1}, {1000, 3 * CostGrain / 1000, 3},
		{math.MaxInt, 1e300, 4}, {math.MaxInt, math.Inf(1), 4},
	} {
		if got := WorkersByCost(c.n, c.itemNanos); got != c.want {
			t.Errorf("WorkersByCost(%d, %v) = %d, want %d", c.n, c.itemNanos, got, c.want)
		}
	}
	SetThreads(1)
	if got := WorkersByCost(1<<20, 1e6); got != 1 {
		t.Errorf("one thread: WorkersByCost = %d", got)
	}
}

func TestParallelByCostCoversEachIndexOnce(t *testing.T) {
	defer SetThreads(SetThreads(3))
	for _, n := range []int{0, 1, 2, 5, 1000} {
		seen := make([]atomic.Int32, n)
		var calls atomic.Int32
		ParallelByCost(n, 1e9, func(lo, hi int) {
			calls.Add(1)
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		})
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("n=%d: index %d ran %d times", n, i, c)
			}
		}
		if want := WorkersByCost(n, 1e9); n > 0 && int(calls.Load()) != want {
			t.Errorf("n=%d: %d ranges, WorkersByCost says %d", n, calls.Load(), want)
		}
	}
}

// pairwise is the reduction Reduce promises, written plainly: the blocks'
// partials merged as halves of halves.
func pairwise[A any](lo, hi, n, block int, partial func(lo, hi int, acc A) A, merge func(a, b A) A) A {
	if hi-lo > 1 {
		mid := lo + (hi-lo+1)/2
		return merge(pairwise(lo, mid, n, block, partial, merge), pairwise(mid, hi, n, block, partial, merge))
	}
	var zero A
	return partial(lo*block, min(n, (lo+1)*block), zero)
}

// A float sum and a weighted histogram in every split: the same bits at
// every thread count, those of the plain pairwise reduction, each block
// run once with the blocks' fixed bounds.
func TestReduceSameBitsAtEveryThreadCount(t *testing.T) {
	defer SetThreads(SetThreads(1))
	r := rand.New(rand.NewPCG(13, 14))
	const bins = 7
	for _, c := range []struct{ n, block int }{{0, 5}, {1, 5}, {5, 5}, {6, 5}, {1000, 1}, {1000, 7}, {4099, 64}, {50_000, 1000}} {
		x := randomFloats[float64](r, c.n)
		bin := make([]int, c.n)
		for i := range bin {
			bin[i] = r.IntN(bins)
		}
		sum := func(lo, hi int, _ float64) float64 {
			s := 0.0
			for _, v := range x[lo:hi] {
				s += v
			}
			return s
		}
		add := func(a, b float64) float64 { return a + b }
		histogram := func(lo, hi int, h []float64) []float64 {
			if h == nil {
				h = make([]float64, bins)
			}
			clear(h)
			for i := lo; i < hi; i++ {
				h[bin[i]] += x[i]
			}
			return h
		}
		addBins := func(a, b []float64) []float64 {
			for i, v := range b {
				a[i] += v
			}
			return a
		}
		blocks := max(1, (c.n+c.block-1)/c.block)
		wantSum := pairwise(0, blocks, c.n, c.block, sum, add)
		wantHist := pairwise(0, blocks, c.n, c.block, histogram, addBins)
		for threads := 1; threads <= 8; threads++ {
			SetThreads(threads)
			ran := make([]atomic.Int32, blocks)
			got := Reduce(c.n, c.block, 1e9, func(lo, hi int, acc float64) float64 {
				b := lo / c.block
				if lo != b*c.block || hi != min(c.n, lo+c.block) {
					t.Errorf("n=%d block=%d: a block [%d, %d)", c.n, c.block, lo, hi)
				}
				ran[b].Add(1)
				return sum(lo, hi, acc)
			}, add)
			what := fmt.Sprintf("n=%d block=%d threads=%d", c.n, c.block, threads)
			if math.Float64bits(got) != math.Float64bits(wantSum) {
				t.Errorf("%s: sum %v, want %v", what, got, wantSum)
			}
			for b := range ran {
				if ran[b].Load() != 1 {
					t.Errorf("%s: block %d ran %d times", what, b, ran[b].Load())
				}
			}
			h := Reduce(c.n, c.block, 1e9, histogram, addBins)
			if !slices.Equal(h, wantHist) { // the same bits: no bin is NaN
				t.Errorf("%s: histogram %v, want %v", what, h, wantHist)
			}
		}
	}
}

// The accumulators a partial gets are the zero value or ones merged
// already, never one that another call holds.
func TestReduceHandsOutOnlyFreeAccumulators(t *testing.T) {
	defer SetThreads(SetThreads(4))
	type acc struct {
		busy atomic.Int32
		lo   int
	}
	got := Reduce(10_000, 10, 1e9, func(lo, hi int, a *acc) *acc {
		if a == nil {
			a = new(acc)
		}
		if a.busy.Add(1) != 1 {
			t.Error("an accumulator in two calls at once")
		}
		a.lo = lo
		a.busy.Add(-1)
		return a
	}, func(a, b *acc) *acc {
		if a == b || a.busy.Add(1) != 1 || b.busy.Add(1) != 1 {
			t.Error("a merge of accumulators that are in use")
		}
		if a.lo > b.lo {
			t.Errorf("merged [%d…) with [%d…): out of order", a.lo, b.lo)
		}
		a.busy.Add(-1)
		b.busy.Add(-1)
		return a
	})
	if got.lo != 0 {
		t.Errorf("the result starts at %d", got.lo)
	}
}

func TestReducePanicsOnTheCaller(t *testing.T) {
	defer SetThreads(SetThreads(4))
	for _, where := range []string{"first block", "later block", "merge"} {
		var running atomic.Int32
		func() {
			defer func() {
				if r := recover(); r != where {
					t.Errorf("%s: recovered %v", where, r)
				}
				if n := running.Load(); n != 0 {
					t.Errorf("%s: Reduce returned with %d calls running", where, n)
				}
			}()
			Reduce(64, 1, 1e9, func(lo, hi int, acc int) int {
				running.Add(1)
				defer running.Add(-1)
				if (where == "first block" && lo == 0) || (where == "later block" && lo == 37) {
					panic(where)
				}
				time.Sleep(100 * time.Microsecond)
				return acc
			}, func(a, b int) int {
				if where == "merge" {
					panic(where)
				}
				return a + b
			})
		}()
	}
	if !panics(func() { Reduce(10, 0, 1, func(lo, hi int, acc int) int { return 0 }, func(a, b int) int { return a }) }) {
		t.Error("blocks of 0: no panic")
	}
}

// A parallel top-k: the blocks' TopKs merged give the one-piece result.
func TestReduceTopK(t *testing.T) {
	defer SetThreads(SetThreads(1))
	x := sample[float32](rand.New(rand.NewPCG(15, 16)), 20_000, true)
	const k = 25
	ranking := ranked(x, false)
	for threads := 1; threads <= 8; threads++ {
		SetThreads(threads)
		top := Reduce(len(x), 999, 1e9, func(lo, hi int, t *TopK[float32]) *TopK[float32] {
			if t == nil {
				t = new(TopK[float32])
			}
			t.Largest(k)
			t.Push(x[lo:hi], lo)
			return t
		}, func(a, b *TopK[float32]) *TopK[float32] { a.Merge(b); return a })
		checkTop(t, fmt.Sprintf("threads=%d", threads), top, x, ranking)
	}
}

// spin is compute-bound work on one core: n dependent multiply-adds.
func spin(n int) float64 {
	x := 1.0
	for range n {
		x = x*1.0000001 + 1e-9
	}
	return x
}

// BenchmarkCostGrain times compute-bound work of 25 us to 1 ms (on one
// core, measured first) split over one goroutine and over two: where two
// take less than one, a split pays, which is what CostGrain is set from.
func BenchmarkCostGrain(b *testing.B) {
	defer SetThreads(SetThreads(2))
	start := time.Now()
	sink += spin(1 << 22)
	perNano := float64(1<<22) / float64(time.Since(start))
	for _, us := range []int{25, 50, 100, 200, 400, 1000} {
		item := int(perNano * float64(us) * 1000 / 64)
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("%dus/%d", us, w), func(b *testing.B) {
				for range b.N {
					parallelOn(64, w, func(lo, hi int) { sink += spin(item * (hi - lo)) })
				}
			})
		}
	}
}

// BenchmarkReduce is a weighted bincount of 1M int32 into 256 bins, on one
// goroutine and on two.
func BenchmarkReduce(b *testing.B) {
	defer SetThreads(SetThreads(1))
	r := rand.New(rand.NewPCG(17, 18))
	bins, weights := make([]int32, 1<<20), randomFloats[float64](r, 1<<20)
	for i := range bins {
		bins[i] = int32(r.IntN(256))
	}
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprint(threads), func(b *testing.B) {
			SetThreads(threads)
			b.SetBytes(12 << 20)
			for range b.N {
				h := Reduce(len(bins), 1<<15, 1, func(lo, hi int, h []float64) []float64 {
					if h == nil {
						h = make([]float64, 256)
					}
					clear(h)
					for i, v := range bins[lo:hi] {
						h[v] += weights[lo+i]
					}
					return h
				}, func(a, b []float64) []float64 {
					Axpy(a, 1, b)
					return a
				})
				sink += h[0]
			}
		})
	}
}
