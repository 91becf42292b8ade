package vec

import (
	"github.com/godlpack/godlpack/internal/fmt"
	"sync/atomic"
)

// CostGrain is the least work, in nanoseconds of one core's time, that
// [ParallelByCost] and [Reduce] give a goroutine: a range of less than
// twice as much runs on the calling goroutine alone. It is for work bound
// by the cores rather than by memory (a tile of a matrix product, an exp),
// where every goroutine adds a core's speed once its work outweighs the
// cost of starting and waiting for it: 6-25 us on idle cores, so that the
// smallest split (200 us of work on two goroutines) saves about a third,
// and 50-200 us on busy ones, where it about breaks even. When other
// processes fill every core no split pays: on this project's 2-core EPYC
// at a load average of 6-7, 1 ms of work took 1.04-1.07 times as long on
// two goroutines as on one (BenchmarkCostGrain). [ParallelGrain] is the
// grain in bytes, for work bound by memory.
const CostGrain = 100_000

// WorkersByCost returns the goroutines that ParallelByCost(n, itemNanos, f)
// runs f on: at most [Threads], at most n, and no more than the work allows
// at [CostGrain] nanoseconds each; at least 1.
func WorkersByCost(n int, itemNanos float64) int {
	w := Threads()
	if n <= 1 || w <= 1 || !(itemNanos > 0) {
		return 1
	}
	if grains := float64(n) * itemNanos / CostGrain; grains < float64(min(w, n)) {
		return max(int(grains), 1)
	}
	return min(w, n)
}

// ParallelByCost is [Parallel] for work measured in time rather than
// memory: it calls f(lo, hi) for consecutive ranges of indexes that together
// cover [0, n) once, on up to [WorkersByCost] goroutines, the calling one
// among them, where itemNanos is about how long one index takes one core
// (a row of 1,024 float32 exps, say, 500 ns). As with Parallel, f escapes,
// and a panic in any range is raised again on the calling goroutine once
// all have returned.
func ParallelByCost(n int, itemNanos float64, f func(lo, hi int)) {
	parallelOn(n, WorkersByCost(n, itemNanos), f)
}

// Reduce returns the reduction of the indexes [0, n) in blocks of block
// indexes, whose float results are the same bits whatever the thread count.
// partial(lo, hi, acc) returns the partial result of the indexes [lo, hi),
// which it may build in acc's storage: acc is A's zero value or the second
// argument of an earlier merge, whose contents are stale. merge(a, b)
// returns the result of a's indexes followed by b's, which it may build in
// a's storage, and never in b's (Reduce hands b to a later partial).
//
// The blocks [0, block), [block, 2·block), … are fixed by n and block alone,
// and their partials are merged in a fixed order: the first half of the
// blocks' result with the second half's, each half the same way, down to
// single blocks. The result therefore depends on n, block and the two
// functions, never on [Threads], which goroutine ran a block, or in what
// order: a float sum gives the same bits on one thread or eight, and it is
// pairwise, as accurate as [Sum]'s blocks. An n of 0 (or less) is one
// empty block: Reduce returns partial(0, 0, zero).
//
// The blocks run on up to [WorkersByCost](n, itemNanos) goroutines, the
// calling one among them (itemNanos is the time one index takes one core),
// each taking the next run of blocks not yet taken, about eight runs a
// goroutine, so that a busy core delays the others little. partial and
// merge run on several goroutines at once, each call with accumulators no
// other call holds: a per-worker histogram, say, needs no mutex. A
// goroutine holds a few accumulators at a time, up to about log2 of the
// blocks it runs: blocks far larger than an accumulator keep the merges
// cheap. A panic in partial or merge is raised again on the calling
// goroutine once every goroutine has stopped: none runs on after Reduce
// returns. It panics if block is below 1.
func Reduce[A any](n, block int, itemNanos float64, partial func(lo, hi int, acc A) A, merge func(a, b A) A) A {
	if block < 1 {
		panic(fmt.Sprintf("vec.Reduce: blocks of %d indexes", block))
	}
	n = max(n, 0)
	blocks := max(1, n/block+min(n%block, 1))
	r := &reduction[A]{n: n, block: block, partial: partial, merge: merge}
	w := min(WorkersByCost(n, itemNanos), blocks)
	if w <= 1 {
		var spares []A
		return r.subtree(0, blocks, &spares)
	}
	// Tasks are the subtrees a few levels down, about 8 a goroutine, taken
	// in turn; the tree above them is merged by whichever goroutine
	// finishes a pair's second half.
	r.cut(0, blocks, 8*w, -1, 0)
	beginSplit(w)
	defer endSplit()
	var wg waiter
	var failure atomic.Pointer[any]
	run := func() {
		defer func() {
			if p := recover(); p != nil {
				failure.CompareAndSwap(nil, &p)
				r.stop.Store(true)
			}
		}()
		r.work()
	}
	wg.add(w - 1)
	for range w - 1 {
		go func() {
			defer wg.done()
			run()
		}()
	}
	run()
	wg.wait()
	if p := failure.Load(); p != nil {
		panic(*p)
	}
	return r.result
}

// A reduction is the state of one Reduce split over goroutines.
type reduction[A any] struct {
	n, block int
	partial  func(lo, hi int, acc A) A
	merge    func(a, b A) A
	tasks    []task
	joints   []joint[A]
	next     atomic.Int64 // the next task to take
	stop     atomic.Bool  // a goroutine panicked: take no more tasks
	result   A
}

// A task is a subtree of the blocks [lo, hi), the half side of joint up.
type task struct{ lo, hi, up, side int }

// A joint is an inner node of the tree above the tasks: the first of its
// halves to finish waits in part for the second, whose goroutine merges
// them and goes up.
type joint[A any] struct {
	done     atomic.Int32
	part     [2]A
	up, side int
}

// halfway returns where the blocks [lo, hi) divide: the first half the
// larger, as [halve] divides a sum.
func halfway(lo, hi int) int { return lo + (hi-lo+1)/2 }

// cut makes the blocks [lo, hi) tasks below the joint up, halving them
// until there are about want, or single blocks.
func (r *reduction[A]) cut(lo, hi, want, up, side int) {
	if want <= 1 || hi-lo == 1 {
		r.tasks = append(r.tasks, task{lo, hi, up, side})
		return
	}
	j := len(r.joints)
	r.joints = append(r.joints, joint[A]{up: up, side: side})
	mid := halfway(lo, hi)
	r.cut(lo, mid, want/2, j, 0)
	r.cut(mid, hi, want-want/2, j, 1)
}

// work runs the tasks one after the other until none is left, merging up
// the tree as far as each finished half finds its other half done.
func (r *reduction[A]) work() {
	var spares []A
	for !r.stop.Load() {
		t := int(r.next.Add(1) - 1)
		if t >= len(r.tasks) {
			return
		}
		task := r.tasks[t]
		acc, up, side := r.subtree(task.lo, task.hi, &spares), task.up, task.side
		for ; up >= 0; up, side = r.joints[up].up, r.joints[up].side {
			j := &r.joints[up]
			j.part[side] = acc
			if j.done.Add(1) == 1 {
				break // the other half's goroutine goes on
			}
			a, b := j.part[0], j.part[1]
			j.part = [2]A{}
			acc = r.merge(a, b)
			spares = append(spares, b)
		}
		if up < 0 {
			r.result = acc
		}
	}
}

// subtree returns the reduction of the blocks [lo, hi) on this goroutine,
// taking accumulators from spares and giving the merged ones back.
func (r *reduction[A]) subtree(lo, hi int, spares *[]A) A {
	if hi-lo > 1 {
		mid := halfway(lo, hi)
		a := r.subtree(lo, mid, spares)
		b := r.subtree(mid, hi, spares)
		a = r.merge(a, b)
		*spares = append(*spares, b)
		return a
	}
	var acc A
	if s := *spares; len(s) > 0 {
		acc, *spares = s[len(s)-1], s[:len(s)-1]
	}
	start := lo * r.block
	return r.partial(start, start+min(r.block, r.n-start), acc)
}
