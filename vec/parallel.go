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
// the calling goroutine alone. Measured on this project's 2-core AMD EPYC,
// shared with other work: a second goroutine starts, runs and is waited for
// in 6-25 us on idle cores and 50-200 us on busy ones, and one core already
// draws about what memory gives. Splits of 8-16 MB of cold data gained 10-28%
// on a quiet machine, splits of 8 MB that sat in the caches lost (an in-place
// scale of 1M float64, 16 MB of work, took 219 us on two goroutines and
// 117 us on one), and above 64 MB the two took the same time; a
// compute-bound kernel (SqDists) gains from every split.
const ParallelGrain = 8 << 20

// threads is the most goroutines Parallel uses.
var threads atomic.Int64

func init() { threads.Store(int64(defaultThreads())) }

// cores is the runtime's P count at start-up: the cores Go sees (a split
// raises the count while it runs).
var cores = runtime.GOMAXPROCS(0)

// defaultThreads is GODLPACK_NUM_THREADS when that is a positive integer,
// else the cores Go sees.
func defaultThreads() int {
	if n, err := strconv.Atoi(os.Getenv("GODLPACK_NUM_THREADS")); err == nil && n > 0 {
		return n
	}
	return cores
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
// calling goroutine. With more, the runtime is given a P beyond them while
// they run, within the CPUs + 1, and GOMAXPROCS is restored when the last
// split running returns. f escapes (a closure that captures variables is allocated
// for the call): a hot path that must not allocate calls its kernel itself
// where Workers returns 1. A panic in any range is raised again on the
// calling goroutine once all have returned: no range runs on after
// Parallel returns.
func Parallel(n, itemBytes int, f func(lo, hi int)) { parallelOn(n, Workers(n, itemBytes), f) }

// parallelOn is Parallel on w goroutines.
func parallelOn(n, w int, f func(lo, hi int)) {
	if w <= 1 {
		if n > 0 {
			f(0, n)
		}
		return
	}
	beginSplit(w)
	defer endSplit()
	var wg waiter
	var failure atomic.Pointer[any]
	run := func(lo, hi int) {
		defer func() {
			if r := recover(); r != nil {
				failure.CompareAndSwap(nil, &r)
			}
		}()
		f(lo, hi)
	}
	bound := func(i int) int { return int(int64(n) * int64(i) / int64(w)) }
	wg.add(w - 1)
	for i := 1; i < w; i++ {
		go func() {
			defer wg.done()
			run(bound(i), bound(i+1))
		}()
	}
	run(0, bound(1))
	wg.wait()
	if r := failure.Load(); r != nil {
		panic(*r)
	}
}

// The runtime's P count (GOMAXPROCS) during splits. A goroutine that runs
// Go code holds a P, and a call from Python into Go needs one: while a
// split's goroutines hold every P, a call from another thread, and the
// garbage collector's workers, wait until the runtime preempts one of them,
// 10 ms on (tests/runtime's judge saw calls wait 15-20 ms while a sum
// filled both cores, 8 ms on one). A spare P lets them run at once, on a
// core the operating system shares out.
//
// So a split of w goroutines raises GOMAXPROCS to w+1 while it runs, but
// never above the CPUs + 1: more Ps than cores run nothing sooner, and each
// P costs the garbage collector (a runtime left with 287 Ps on 2 cores took
// 8.2 ms a collection instead of 0.29). When the last of the splits running
// at once returns, GOMAXPROCS is what it was before the first, unless
// something else changed it meanwhile. Each change stops the world for
// microseconds, against the milliseconds of work a split has at least.
var spare struct {
	sync.Mutex
	splits int // the splits running
	before int // GOMAXPROCS before the first raised it; 0 when none did
	raised int // the count the splits set
}

// beginSplit gives the runtime a P beyond the w goroutines of a split that
// starts, within the CPUs + 1; endSplit ends it.
func beginSplit(w int) {
	want := min(w+1, runtime.NumCPU()+1)
	spare.Lock()
	defer spare.Unlock()
	spare.splits++
	if now := runtime.GOMAXPROCS(0); now < want {
		if spare.before == 0 {
			spare.before = now
		}
		runtime.GOMAXPROCS(want)
		spare.raised = want
	}
}

// endSplit ends a split that beginSplit began; the last one running gives
// the runtime its P count back.
func endSplit() {
	spare.Lock()
	defer spare.Unlock()
	if spare.splits--; spare.splits > 0 || spare.before == 0 {
		return
	}
	if runtime.GOMAXPROCS(0) == spare.raised {
		restoreProcs(spare.before)
	}
	spare.before, spare.raised = 0, 0
}

// A waiter is the count of goroutines a caller started and waits for. The
// caller spins a few tens of microseconds before it parks: a call from
// Python is locked to its thread, and a locked goroutine that parks hands
// its P to another thread and needs it handed back, two wake-ups of
// threads (5-25 us apart on 2 idle cores, more on busy ones) where the
// other goroutines' share of a split is often done by then.
type waiter struct {
	left atomic.Int32
	wg   sync.WaitGroup
}

func (w *waiter) add(n int) {
	w.left.Add(int32(n))
	w.wg.Add(n)
}

func (w *waiter) done() {
	w.left.Add(-1)
	w.wg.Done()
}

// spins is how many times a waiter looks before it parks: about 50 us.
const spins = 1 << 16

func (w *waiter) wait() {
	for i := 0; i < spins && w.left.Load() > 0; i++ {
	}
	w.wg.Wait()
}
