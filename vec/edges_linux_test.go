package vec

import (
	"math"
	"syscall"
	"testing"
	"unsafe"
)

// pageEdge returns n float32s that end where a page that cannot be read
// begins (atEnd) or begin where one ends, the rest of their own page NaN,
// and releases the mapping at the test's end: a kernel that takes its first
// or last elements under a mask must neither touch a byte outside them nor
// add what lies there.
func pageEdge(t *testing.T, n int, atEnd bool) []float32 {
	t.Helper()
	page := syscall.Getpagesize()
	mem, err := syscall.Mmap(-1, 0, 3*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	for _, closed := range [][]byte{mem[:page], mem[2*page:]} {
		if err := syscall.Mprotect(closed, syscall.PROT_NONE); err != nil {
			t.Fatalf("mprotect: %v", err)
		}
	}
	open := unsafe.Slice((*float32)(unsafe.Pointer(&mem[page])), page/4)
	for i := range open {
		open[i] = float32(math.NaN())
	}
	x := open[:n]
	if atEnd {
		x = open[len(open)-n:]
	}
	for i := range x {
		x[i] = float32(i%7) - 2
	}
	return x
}

// TestMaskedEdgesStayInTheSlice runs the kernels that take their edges
// under a mask on slices at either edge of a page no one may read or write,
// the rest of their page NaN, at every length up to a few vectors, with x
// and dst at the same edge and at opposite ones: a fault would end the test
// binary, an element read past the slice would make the result NaN.
func TestMaskedEdgesStayInTheSlice(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		for _, xAtEnd := range []bool{true, false} {
			for _, dstAtEnd := range []bool{true, false} {
				for n := 1; n <= 70; n++ {
					testEdges(t, pageEdge(t, n, xAtEnd), pageEdge(t, n, dstAtEnd))
				}
			}
		}
	})
}

func testEdges(t *testing.T, x, dst []float32) {
	t.Helper()
	sum, low, high := 0.0, x[0], x[0]
	for _, v := range x {
		sum += float64(v)
		low, high = min(low, v), max(high, v)
	}
	check := func(what string, got, want float64) {
		t.Helper()
		if got != want {
			t.Fatalf("%s of %d at a page's edge: %v, want %v", what, len(x), got, want)
		}
	}
	check("Sum", Sum(x), sum)
	check("Min", float64(Min(x)), float64(low))
	check("Max", float64(Max(x)), float64(high))
	check("ArgMax", float64(x[ArgMax(x)]), float64(high))
	ExpSum(dst, x, 1)
	check("ExpSum's dst", float64(dst[len(dst)-1]), float64(expGo(x[len(x)-1]-1)))
	check("ExpSum", ExpSum(dst, x, 1), Sum(dst))
	AddConst(dst, x, 1)
	check("AddConst", float64(dst[0]), float64(x[0]+1))
	MulAdd(dst, x, x, dst)
	for _, v := range dst {
		if v != v {
			t.Fatalf("MulAdd of %d at a page's edge wrote NaN", len(x))
		}
	}
}
