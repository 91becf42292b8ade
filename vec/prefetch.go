package vec

import "unsafe"

// Prefetch asks the CPU to bring x's memory into its caches and returns at
// once, without waiting for it: a hint that x is read soon. A loop over
// rows gives it the next row while it works on this one, so that the
// memory of one arrives during the arithmetic of the other, which a CPU
// does not overlap on its own: a softmax of 4096 rows of 1024 float32s
// ([Max], [ExpSum], [MulConst] a row) whose memory is not in the caches
// took 1.73 ms, and 1.14 ms with each next row prefetched. Prefetch does
// not read or write x's elements, and does nothing on the pure-Go path. A
// row of a few kilobytes is what it is for: memory beyond the caches'
// size evicts what it brought first.
func Prefetch[T any](x []T) {
	p, n := unsafe.Pointer(unsafe.SliceData(x)), uintptr(len(x))*unsafe.Sizeof(*new(T))
	for n > 0 {
		m := min(n, prefetchStep)
		prefetch(p, m)
		p, n = unsafe.Add(p, m), n-m
	}
}

// prefetchStep is the most bytes one call of the assembly prefetches (a
// thousand cache lines, a few microseconds where their memory is slow to
// come), between which the runtime can preempt the goroutine.
const prefetchStep = 64 << 10
