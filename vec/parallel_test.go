package vec

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestParallelCoversEachIndexOnce(t *testing.T) {
	defer SetThreads(SetThreads(4))
	for _, n := range []int{0, 1, 2, 3, 7, 100, 1 << 20} {
		for _, itemBytes := range []int{1, 1 << 10, ParallelGrain} {
			seen := make([]atomic.Int32, n)
			var calls atomic.Int32
			Parallel(n, itemBytes, func(lo, hi int) {
				calls.Add(1)
				for i := lo; i < hi; i++ {
					seen[i].Add(1)
				}
			})
			for i := range seen {
				if c := seen[i].Load(); c != 1 {
					t.Fatalf("n=%d, itemBytes=%d: index %d ran %d times", n, itemBytes, i, c)
				}
			}
			if want := Workers(n, itemBytes); n > 0 && int(calls.Load()) != want {
				t.Errorf("n=%d, itemBytes=%d: %d ranges, Workers says %d", n, itemBytes, calls.Load(), want)
			}
		}
	}
}

func TestWorkers(t *testing.T) {
	defer SetThreads(SetThreads(4))
	for _, c := range []struct{ n, itemBytes, want int }{
		{0, 1, 1}, {1, 1 << 30, 1}, {3, 1 << 30, 3}, {100, 1 << 30, 4},
		{2 * ParallelGrain, 1, 2}, {2*ParallelGrain - 1, 1, 1}, {4 * ParallelGrain, 1, 4}, {1 << 30, 1 << 30, 4},
	} {
		if got := Workers(c.n, c.itemBytes); got != c.want {
			t.Errorf("Workers(%d, %d) = %d, want %d", c.n, c.itemBytes, got, c.want)
		}
	}
	SetThreads(1)
	if got := Workers(1<<20, 1<<20); got != 1 {
		t.Errorf("one thread: Workers = %d", got)
	}
}

func TestSetThreads(t *testing.T) {
	before := Threads()
	defer SetThreads(before)
	if prev := SetThreads(3); prev != before || Threads() != 3 {
		t.Fatalf("SetThreads(3) returned %d (had %d), Threads() = %d", prev, before, Threads())
	}
	t.Setenv("GODLPACK_NUM_THREADS", "5")
	SetThreads(0)
	if Threads() != 5 {
		t.Errorf("the default with GODLPACK_NUM_THREADS=5 is %d", Threads())
	}
	for _, bad := range []string{"0", "-2", "two", ""} {
		t.Setenv("GODLPACK_NUM_THREADS", bad)
		if SetThreads(-1); Threads() < 1 {
			t.Errorf("GODLPACK_NUM_THREADS=%q: %d threads", bad, Threads())
		}
	}
}

// TestParallelLeavesTheRuntimeASpareP holds a split to a P beyond its
// goroutines while it runs, within the CPUs + 1, and to the P count it
// found once the last of the splits running at once has returned.
func TestParallelLeavesTheRuntimeASpareP(t *testing.T) {
	defer SetThreads(SetThreads(3))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	ceiling := runtime.NumCPU() + 1
	var during atomic.Int32
	Parallel(3, 1<<30, func(lo, hi int) { during.Store(int32(runtime.GOMAXPROCS(0))) })
	if got, want := int(during.Load()), min(4, ceiling); got != want {
		t.Errorf("GOMAXPROCS during a split over 3 goroutines: %d, want %d", got, want)
	}
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS after a split: %d, want 2 as before", got)
	}

	// A thread count far beyond the cores, and splits that run at once: each sees at most the CPUs + 1.
	SetThreads(1 << 20)
	var most atomic.Int32
	var splits sync.WaitGroup
	start := make(chan struct{})
	for range 4 {
		splits.Add(1)
		go func() {
			defer splits.Done()
			<-start
			Parallel(300, 1<<40, func(lo, hi int) {
				for {
					m := most.Load()
					if p := int32(runtime.GOMAXPROCS(0)); p <= m || most.CompareAndSwap(m, p) {
						break
					}
				}
				time.Sleep(time.Millisecond)
			})
		}()
	}
	close(start)
	splits.Wait()
	if got := int(most.Load()); got > ceiling || got < min(3, ceiling) {
		t.Errorf("GOMAXPROCS during splits over 300 goroutines: %d, want at most %d (the CPUs + 1)", got, ceiling)
	}
	if got := runtime.GOMAXPROCS(0); got != 2 {
		t.Errorf("GOMAXPROCS after concurrent splits: %d, want 2 as before", got)
	}

	// A P count that something else set during a split stays.
	Parallel(3, 1<<30, func(lo, hi int) {
		if lo == 0 {
			runtime.GOMAXPROCS(1)
		}
	})
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS set to 1 during a split: %d after it", got)
	}
}

// TestParallelSumRestoresTheRuntimesPs splits a float sum (the pairwise
// tree's goroutines) and a Reduce with a thread count beyond the cores.
func TestParallelSumRestoresTheRuntimesPs(t *testing.T) {
	defer SetThreads(SetThreads(1 << 20))
	before := runtime.GOMAXPROCS(0)
	x := make([]float32, 3*ParallelGrain/4)
	if Workers(len(x), 4) < 3 {
		t.Fatalf("a sum of %d float32 is not split", len(x))
	}
	if ParallelSum(x); runtime.GOMAXPROCS(0) != before {
		t.Errorf("GOMAXPROCS after ParallelSum: %d, want %d as before", runtime.GOMAXPROCS(0), before)
	}
	Reduce(1<<20, 1<<10, 1e4, func(lo, hi int, acc int) int { return acc + hi - lo }, func(a, b int) int { return a + b })
	if runtime.GOMAXPROCS(0) != before {
		t.Errorf("GOMAXPROCS after Reduce: %d, want %d as before", runtime.GOMAXPROCS(0), before)
	}
}

func TestParallelRaisesPanicsOnTheCaller(t *testing.T) {
	defer SetThreads(SetThreads(4))
	for _, at := range []int{0, 3} { // the caller's own range, another goroutine's
		var done atomic.Int32
		func() {
			defer func() {
				if r := recover(); r != "range" {
					t.Errorf("recovered %v", r)
				}
				if done.Load() != 3 {
					t.Errorf("Parallel returned before the other ranges: %d of 3 done", done.Load())
				}
			}()
			Parallel(4, 1<<30, func(lo, hi int) {
				if lo == at {
					panic("range")
				}
				done.Add(1)
			})
		}()
	}
}
