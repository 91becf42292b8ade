package vec

import (
	"runtime"
	"sync/atomic"
	"testing"
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

func TestParallelLeavesTheRuntimeASpareP(t *testing.T) {
	defer SetThreads(SetThreads(3))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	Parallel(3, 1<<30, func(lo, hi int) {})
	if got := runtime.GOMAXPROCS(0); got != 4 {
		t.Errorf("GOMAXPROCS after a split over 3 goroutines: %d, want 4", got)
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
