package vec

import (
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
)

// ParallelGrain is the least work, in bytes of memory touched, that
// [Parallel] gives a goroutine: a range of less than twice as much runs on
// the calling goroutine alone. Measured on 2 cores of an AMD EPYC
// (bench/kernels.py): a second goroutine starts, runs and is waited for in
// 5-20 µs, which a sum of 1 MiB or so repays; an in-place scale, which also
// writes, repays it sooner.
const ParallelGrain = 512 << 10

// pieces is the most pieces a goroutine of [Parallel] cuts its share into:
// enough to yield every few tens of microseconds, few enough that a kernel
// working on blocks of rows (as [SqDists] does) gets whole blocks.
const pieces = 16

// threads is the most goroutines Parallel uses.
var threads atomic.Int64

func init() { threads.Store(int64(defaultThreads())) }

// defaultThreads is GODLPACK_NUM_THREADS when that is a positive integer,
// else the cores Go sees.
func defaultThreads() int {
	if n, err := strconv.Atoi(os.Getenv("GODLPACK_NUM_THREADS")); err == nil && n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Threads returns the most goroutines [Parallel] runs a range on, the
// calling one among them: 1 means the calling goroutine alone.
func Threads() int { return int(threads.Load()) }

// SetThreads sets the most goroutines [Parallel] uses to n and returns the
// count it replaces. An n below 1 restores the default: the environment
// variable GODLPACK_NUM_THREADS when it is a positive integer, else
// runtime.GOMAXPROCS(0) (the cores Go sees). It is safe to call at any time,
// from any goroutine; a Parallel call already running keeps its count.
func SetThreads(n int) int {
	if n < 1 {
		n = defaultThreads()
	}
	return int(threads.Swap(int64(n)))
}

// Workers returns the goroutines that Parallel(n, itemBytes, f) runs f on:
// at most [Threads], at most n, and no more than the work allows at
// [ParallelGrain] bytes each; at least 1.
func Workers(n, itemBytes int) int {
	w := int64(Threads())
	if n <= 1 || w <= 1 {
		return 1
	}
	work := float64(n) * float64(max(itemBytes, 1))
	w = min(w, int64(n), int64(work/ParallelGrain))
	return int(max(w, 1))
}

// Parallel calls f(lo, hi) for consecutive ranges of indexes that together
// cover [0, n) once, on up to [Workers] goroutines, the calling goroutine
// among them, and returns once every call has returned. itemBytes is the work
// of one index in bytes of memory touched (a row's bytes, say), which
// decides how many goroutines it is worth; with one, f(0, n) runs on the
// calling goroutine. With more, each goroutine but the calling one calls f
// for pieces of its share, of [ParallelGrain] bytes or more and at most
// 16 of them, and lets other goroutines run between two
// (runtime.Gosched): a Python call into Go, which
// needs a P of the runtime, does not wait for the end of work that fills
// every core. (The calling goroutine does not yield: a call from Python is
// locked to its thread, whose every yield hands its P to another thread.)
// f escapes (a closure that captures variables is allocated for the call): a
// hot path that must not allocate calls its kernel itself where Workers
// returns 1. A panic in any range is raised again on the calling goroutine
// once all have returned: no range runs on after Parallel returns.
func Parallel(n, itemBytes int, f func(lo, hi int)) {
	w := Workers(n, itemBytes)
	if w <= 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	var wg sync.WaitGroup
	var failure atomic.Pointer[any]
	piece := max(1, ParallelGrain/max(itemBytes, 1), (n+w*pieces-1)/(w*pieces))
	run := func(lo, hi int, yield bool) {
		defer func() {
			if r := recover(); r != nil {
				failure.CompareAndSwap(nil, &r)
			}
		}()
		if !yield {
			f(lo, hi)
			return
		}
		for lo < hi {
			end := min(hi, lo+piece)
			f(lo, end)
			if lo = end; lo < hi {
				runtime.Gosched()
			}
		}
	}
	bound := func(i int) int { return int(int64(n) * int64(i) / int64(w)) }
	wg.Add(w - 1)
	for i := 1; i < w; i++ {
		go func() {
			defer wg.Done()
			run(bound(i), bound(i+1), true)
		}()
	}
	run(0, bound(1), false)
	wg.Wait()
	if r := failure.Load(); r != nil {
		panic(*r)
	}
}
