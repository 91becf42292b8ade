package pymodule

import (
	"testing"

	"github.com/godlpack/godlpack/cpython"
)

// TestNewArrayAllocatesOnce holds NewArray to one Go heap allocation, its
// producer.Buffer: its memory is C's and a shape of up to four dimensions
// stays in the Array.
func TestNewArrayAllocatesOnce(t *testing.T) {
	for _, shape := range [][]int64{{}, {4}, {2, 3, 4, 5}} {
		n := testing.AllocsPerRun(100, func() {
			a, _, _ := NewArray[float32](shape...)
			a.Release()
		})
		if n > 1 {
			t.Errorf("NewArray(%v) and Release: %v allocations, want 1", shape, n)
		}
	}
}

// TestNewArrayShape: NewArray counts the elements of any shape it is given,
// refusing with a ValueError a negative dimension and a shape whose bytes
// would pass 2**62, with a MemoryError one that malloc cannot serve, and
// making an empty array of a shape with a zero dimension, however large the
// others.
func TestNewArrayShape(t *testing.T) {
	const succeeds cpython.Exception = -1
	for _, tt := range []struct {
		shape []int64
		n     int               // the elements, when it succeeds
		exc   cpython.Exception // the error's kind, when it fails
	}{
		{nil, 1, succeeds},
		{[]int64{3, 4}, 12, succeeds},
		{[]int64{0, 1 << 62}, 0, succeeds},
		{[]int64{1 << 62, 0, 1 << 62}, 0, succeeds},
		{[]int64{-1}, 0, cpython.ValueError},
		{[]int64{0, -1}, 0, cpython.ValueError},
		{[]int64{1 << 30, 1 << 30}, 0, cpython.MemoryError}, // 2**62 bytes: not refused, but no malloc serves it
		{[]int64{1 << 31, 1 << 31}, 0, cpython.ValueError},  // 2**62 elements, 2**64 bytes
		{[]int64{1 << 32, 1 << 32}, 0, cpython.ValueError},  // a product past 64 bits
		{[]int64{1 << 62, 2}, 0, cpython.ValueError},
		{[]int64{3, 1 << 61, 1 << 62}, 0, cpython.ValueError}, // past 64 bits, then multiplied again
	} {
		a, s, err := NewArray[float32](tt.shape...)
		if err != nil {
			if got := cpython.ExceptionOf(err); got != tt.exc {
				t.Errorf("NewArray(%v): %v (%v), want %v", tt.shape, err, got, tt.exc)
			}
			continue
		}
		a.Release()
		if tt.exc != succeeds || len(s) != tt.n {
			t.Errorf("NewArray(%v) made %d elements, want %d and error %v", tt.shape, len(s), tt.n, tt.exc)
		}
	}
}
