package vec

import (
	"github.com/godlpack/godlpack/internal/fmt"
	"unsafe"
)

// A TopK keeps the k largest elements pushed into it, or, after
// [TopK.Smallest], the k smallest, each with its index: the best k of a
// slice, of the tiles of a matrix product, or of the parts that workers
// searched, merged ([TopK.Merge]) into the best k of the whole.
//
// Elements are ordered by value, and equal values by index, the lower
// first: ties go to the lower index, whatever the order in which elements
// were pushed or parts merged, so that any split of a slice gives the same
// result as the whole. A -0 and a +0 are equal. NaN is never kept: a TopK
// holds fewer than k elements ([TopK.Len]) where fewer than k that are not
// NaN were pushed. Each index is meant to be pushed once; one pushed twice
// may be held twice.
//
// A TopK reuses its storage, which grows with the elements it holds, never
// beyond k: once it has held k, resetting, pushing, merging and sorting
// allocate nothing. Its zero value keeps nothing (k = 0) until
// [TopK.Largest] or [TopK.Smallest] sets k. Float32 and float64 elements
// are scanned by vector kernels (AVX-512 or AVX2 on amd64; pure Go on arm64
// and elsewhere): an element no better than the k-th best so far costs a
// compare in a vector, and only better ones reach the heap, about
// k·ln(n/k) of n random elements.
type TopK[T Number] struct {
	k        int
	smallest bool
	sorted   bool // vals and idx are best first (Sorted), not a heap
	// A heap of the elements kept, the worst at the root: its value is the
	// threshold an element must pass.
	vals []T
	idx  []int64
}

// Largest empties t and sets it to keep the k largest elements pushed from
// now on. It panics if k is negative.
func (t *TopK[T]) Largest(k int) { t.reset(k, false) }

// Smallest empties t and sets it to keep the k smallest elements pushed
// from now on (the nearest by a distance, say). It panics if k is negative.
func (t *TopK[T]) Smallest(k int) { t.reset(k, true) }

func (t *TopK[T]) reset(k int, smallest bool) {
	if k < 0 {
		panic(fmt.Sprintf("vec.TopK: k = %d", k))
	}
	// The storage grows with the elements held, not with k: a k from a
	// caller (Python's, say) larger than the data costs no memory.
	t.k, t.smallest, t.sorted = k, smallest, false
	t.vals, t.idx = t.vals[:0], t.idx[:0]
}

// K returns the most elements t keeps.
func (t *TopK[T]) K() int { return t.k }

// Len returns the elements t holds: k, or fewer where fewer than k
// elements that are not NaN were pushed.
func (t *TopK[T]) Len() int { return len(t.vals) }

// Push offers each element x[i] with the index offset+i: the elements of a
// part of a larger slice (a tile, a worker's range) are offered with their
// indexes in the whole.
func (t *TopK[T]) Push(x []T, offset int) {
	if t.k == 0 {
		return
	}
	t.heapOrder()
	i := 0
	for ; i < len(x) && len(t.vals) < t.k; i++ {
		if v := x[i]; v == v { // not NaN
			t.add(v, int64(offset+i))
		}
	}
	mode := scanAbove
	if t.smallest {
		mode = scanBelow
	}
	for i < len(x) {
		// An element equal to the threshold beats it only at a lower
		// index: up to there the scan takes equal ones too.
		end, m := len(x), mode
		if ties := t.idx[0] - int64(offset); int64(i) < ties {
			end, m = int(min(ties, int64(len(x)))), mode|scanEqual
		}
		j := i + scan(x[i:end], t.vals[0], m)
		if j < end {
			t.replaceRoot(x[j], int64(offset+j))
			j++
		}
		i = j
	}
}

// Merge offers the elements that o holds, with their indexes, as Push
// does: t then holds the best k of both. o is unchanged; merging t into
// itself changes nothing. It panics if one keeps the largest elements and
// the other the smallest.
func (t *TopK[T]) Merge(o *TopK[T]) {
	if o == t || t.k == 0 {
		return
	}
	if o.smallest != t.smallest && len(o.vals) > 0 {
		panic("vec.TopK.Merge: one keeps the largest elements, the other the smallest")
	}
	t.heapOrder()
	for j, v := range o.vals {
		switch {
		case len(t.vals) < t.k:
			t.add(v, o.idx[j])
		case t.worse(t.vals[0], t.idx[0], v, o.idx[j]):
			t.replaceRoot(v, o.idx[j])
		}
	}
}

// Sorted returns the elements t holds and their indexes, best first (equal
// values by index). They are t's own storage, valid until t next changes;
// t may be pushed into and merged after.
func (t *TopK[T]) Sorted() ([]T, []int64) {
	if !t.sorted {
		// Heap sort: the worst goes to the end, then the next worst…
		for end := len(t.vals) - 1; end > 0; end-- {
			t.swap(0, end)
			t.down(0, end)
		}
		t.sorted = true
	}
	return t.vals, t.idx
}

// heapOrder makes t's elements a heap again after Sorted: worst first is
// one.
func (t *TopK[T]) heapOrder() {
	if t.sorted {
		for i, j := 0, len(t.vals)-1; i < j; i, j = i+1, j-1 {
			t.swap(i, j)
		}
		t.sorted = false
	}
}

// worse reports whether the element a at index ai ranks below b at bi.
func (t *TopK[T]) worse(a T, ai int64, b T, bi int64) bool {
	if a == b {
		return ai > bi
	}
	return (a < b) != t.smallest
}

func (t *TopK[T]) swap(i, j int) {
	t.vals[i], t.vals[j] = t.vals[j], t.vals[i]
	t.idx[i], t.idx[j] = t.idx[j], t.idx[i]
}

func (t *TopK[T]) add(v T, i int64) {
	t.vals, t.idx = append(t.vals, v), append(t.idx, i)
	for c := len(t.vals) - 1; c > 0; {
		p := (c - 1) / 2
		if !t.worse(t.vals[c], t.idx[c], t.vals[p], t.idx[p]) {
			break
		}
		t.swap(c, p)
		c = p
	}
}

func (t *TopK[T]) replaceRoot(v T, i int64) {
	t.vals[0], t.idx[0] = v, i
	t.down(0, len(t.vals))
}

// down sifts the element at p down the heap of the first n elements.
func (t *TopK[T]) down(p, n int) {
	for {
		c := 2*p + 1
		if c >= n {
			return
		}
		if c+1 < n && t.worse(t.vals[c+1], t.idx[c+1], t.vals[c], t.idx[c]) {
			c++
		}
		if !t.worse(t.vals[c], t.idx[c], t.vals[p], t.idx[p]) {
			return
		}
		t.swap(c, p)
		p = c
	}
}

// ArgMax returns the index of the largest element of x, the first of equal
// ones (a -0 and a +0 are equal), passing NaNs over as np.nanargmax does.
// It returns -1 where x holds nothing but NaNs, and for an empty x, as
// slices.Index does when nothing matches. Float32 and float64 slices are
// scanned by the vector kernels.
func ArgMax[T Number](x []T) int { return argExtreme(x, argMax) }

// ArgMin is [ArgMax] for the smallest element.
func ArgMin[T Number](x []T) int { return argExtreme(x, argMin) }

// The modes of a threshold scan: the first element above or below it, or
// equal to it too.
const (
	scanAbove = 0
	scanBelow = 1
	scanEqual = 2
)

// The modes of an extreme's search.
const (
	argMax = 0
	argMin = 1
)

// The kernels of the active path (select_amd64.go, select_other.go), for
// float32 and float64: scanF32Kernel and scanF64Kernel return the index of
// the first element of x that passes t by mode (scanAbove or scanBelow,
// with scanEqual or not), len(x) if none; argF32Kernel and argF64Kernel
// the index of the first largest (argMax) or smallest (argMin) element, -1
// if x holds nothing but NaNs. Each takes any length.

// scan returns the index of the first element of x that passes t by mode
// (scanAbove or scanBelow, with scanEqual or not), len(x) if none; arg the
// index of the first largest (argMax) or smallest (argMin) element, -1 if x
// holds nothing but NaNs. Each takes any length.
type selectKernels struct {
	scanF32 func(x []float32, t float32, mode int) int
	scanF64 func(x []float64, t float64, mode int) int
	argF32  func(x []float32, mode int) int
	argF64  func(x []float64, mode int) int
}

var goSelect = selectKernels{scanGo[float32], scanGo[float64], argGo[float32], argGo[float64]}

// scan returns the index of the first element of x that passes t by mode,
// len(x) if none, in steps the runtime can preempt between.
func scan[T Number](x []T, t T, mode int) int {
	k := kindOf[T]()
	for done := 0; done < len(x); done += step {
		part := x[done:min(len(x), done+step)]
		var j int
		switch k {
		case f32:
			j = scanF32Kernel(as[float32](part), *(*float32)(unsafe.Pointer(&t)), mode)
		case f64:
			j = scanF64Kernel(as[float64](part), *(*float64)(unsafe.Pointer(&t)), mode)
		default:
			j = scanGo(part, t, mode)
		}
		if j < len(part) {
			return done + j
		}
	}
	return len(x)
}

func argExtreme[T Number](x []T, mode int) int {
	k := kindOf[T]()
	best := -1
	for done := 0; done < len(x); done += step {
		part := x[done:min(len(x), done+step)]
		var j int
		switch k {
		case f32:
			j = argF32Kernel(as[float32](part), mode)
		case f64:
			j = argF64Kernel(as[float64](part), mode)
		default:
			j = argGo(part, mode)
		}
		best = firstExtreme(x, best, offsetOf(done, j), mode)
	}
	return best
}

func scanGo[T Number](x []T, t T, mode int) int {
	switch mode {
	case scanAbove:
		for j, v := range x {
			if v > t {
				return j
			}
		}
	case scanBelow:
		for j, v := range x {
			if v < t {
				return j
			}
		}
	case scanAbove | scanEqual:
		for j, v := range x {
			if v >= t {
				return j
			}
		}
	case scanBelow | scanEqual:
		for j, v := range x {
			if v <= t {
				return j
			}
		}
	}
	return len(x)
}

func argGo[T Number](x []T, mode int) int {
	i := 0
	for i < len(x) && x[i] != x[i] { // NaNs first
		i++
	}
	if i == len(x) {
		return -1
	}
	best, m := i, x[i]
	if mode == argMax {
		for j := i + 1; j < len(x); j++ {
			if x[j] > m { // false for NaN
				best, m = j, x[j]
			}
		}
	} else {
		for j := i + 1; j < len(x); j++ {
			if x[j] < m {
				best, m = j, x[j]
			}
		}
	}
	return best
}

// firstExtreme returns best or cand, indexes of x (-1 for none), whichever
// is the extreme by mode, best where they are equal: best is the earlier.
func firstExtreme[T Number](x []T, best, cand, mode int) int {
	switch {
	case cand < 0:
		return best
	case best < 0, mode == argMax && x[cand] > x[best], mode == argMin && x[cand] < x[best]:
		return cand
	}
	return best
}

// offsetOf returns at+j, or -1 for j of -1 (none).
func offsetOf(at, j int) int {
	if j < 0 {
		return -1
	}
	return at + j
}
