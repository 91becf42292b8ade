package strided

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// buffer is memory holding one strided layout; base is the byte offset of
// element (0, ..., 0) in mem.
type buffer struct {
	mem     []byte
	base    int64
	strides []int64
}

func newBuffer(t testing.TB, shape, strides []int64, itemSize int, fill byte) *buffer {
	t.Helper()
	n, low, high := span(shape, strides)
	if n > 0 {
		high++ // one past the last element
	}
	mem := make([]byte, (high-low)*int64(itemSize)+1) // +1 so &mem[0] exists when empty
	for i := range mem {
		mem[i] = fill
	}
	return &buffer{mem: mem, base: -low * int64(itemSize), strides: strides}
}

// span returns the number of elements of a small layout and the offsets,
// in elements, of its lowest and highest element (0 and 0 when empty).
func span(shape, strides []int64) (n, low, high int64) {
	n = 1
	for i, d := range shape {
		n *= d
		if off := strides[i] * (d - 1); off < 0 {
			low += off
		} else if d > 0 {
			high += off
		}
	}
	if n == 0 {
		return 0, 0, 0
	}
	return n, low, high
}

func (b *buffer) ptr() unsafe.Pointer { return unsafe.Pointer(&b.mem[b.base]) }

// refCopy is the obvious element-by-element copy Copy must agree with.
func refCopy(dst, src *buffer, shape []int64, itemSize int) {
	n, _, _ := span(shape, src.strides)
	idx := make([]int64, len(shape))
	for range n {
		var so, do int64
		for i, x := range idx {
			so += x * src.strides[i]
			do += x * dst.strides[i]
		}
		so = src.base + so*int64(itemSize)
		do = dst.base + do*int64(itemSize)
		copy(dst.mem[do:do+int64(itemSize)], src.mem[so:so+int64(itemSize)])
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
}

func randomize(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

// checkCopy runs Copy and refCopy on the same layouts and compares the
// whole destination memory, so bytes outside the layout are checked too.
func checkCopy(t *testing.T, r *rand.Rand, shape, dstStrides, srcStrides []int64, itemSize int) {
	t.Helper()
	src := newBuffer(t, shape, srcStrides, itemSize, 0)
	randomize(r, src.mem)
	got := newBuffer(t, shape, dstStrides, itemSize, 0xEE)
	want := newBuffer(t, shape, dstStrides, itemSize, 0xEE)
	refCopy(want, src, shape, itemSize)
	Copy(got.ptr(), dstStrides, src.ptr(), srcStrides, shape, itemSize)
	if !bytes.Equal(got.mem, want.mem) {
		t.Errorf("Copy(shape %v, dst strides %v, src strides %v, itemSize %d):\n got %x\nwant %x",
			shape, dstStrides, srcStrides, itemSize, got.mem, want.mem)
	}
}

func TestCopy(t *testing.T) {
	tests := []struct {
		name            string
		shape, dst, src []int64
	}{
		{"0-d", nil, nil, nil},
		{"contiguous 1-d", []int64{17}, []int64{1}, []int64{1}},
		{"contiguous 3-d", []int64{3, 4, 5}, []int64{20, 5, 1}, []int64{20, 5, 1}},
		{"transposed to contiguous", []int64{3, 4}, []int64{4, 1}, []int64{1, 3}},
		{"contiguous to transposed", []int64{3, 4}, []int64{1, 3}, []int64{4, 1}},
		{"negative strides", []int64{5}, []int64{1}, []int64{-1}},
		{"negative 2-d", []int64{3, 4}, []int64{4, 1}, []int64{-4, -1}},
		{"negative rows only", []int64{3, 4}, []int64{4, 1}, []int64{-4, 1}},
		{"sliced rows", []int64{3, 4}, []int64{4, 1}, []int64{10, 1}},
		{"step 2", []int64{6}, []int64{1}, []int64{2}},
		{"both strided", []int64{4, 3}, []int64{7, 2}, []int64{-1, 5}},
		{"size-1 dims", []int64{1, 3, 1, 2}, []int64{100, 2, -7, 1}, []int64{0, 1, 9, 3}},
		{"broadcast source", []int64{3, 4}, []int64{4, 1}, []int64{0, 1}},
		{"broadcast scalar", []int64{2, 3}, []int64{3, 1}, []int64{0, 0}},
		{"permuted 3-d", []int64{2, 3, 4}, []int64{12, 4, 1}, []int64{1, 8, 2}},
		{"inner run, outer gaps", []int64{2, 3, 4}, []int64{40, 10, 1}, []int64{12, 4, 1}},
		{"coalesce middle", []int64{2, 3, 4}, []int64{12, 4, 1}, []int64{24, 4, 1}},
		{"all ones", []int64{1, 1, 1}, []int64{5, 5, 5}, []int64{-1, 0, 3}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, tt := range tests {
		for _, size := range []int{1, 2, 4, 8, 16, 3, 12} {
			t.Run(fmt.Sprintf("%s/%d", tt.name, size), func(t *testing.T) {
				checkCopy(t, r, tt.shape, tt.dst, tt.src, size)
			})
		}
	}
}

func TestCopyEmpty(t *testing.T) {
	// With no elements nothing may be read or written, so the pointers
	// may be nil.
	for _, shape := range [][]int64{{0}, {3, 0, 5}, {0, 1 << 40}} {
		s := []int64{1, 1, 1}[:len(shape)] // any strides: none is followed
		Copy(nil, s, nil, s, shape, 8)
	}
	Copy(nil, nil, nil, nil, []int64{4}, 0)
}

func TestCopyNilStrides(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	shape := []int64{3, 5}
	src := make([]byte, 15*4)
	randomize(r, src)
	dst := make([]byte, len(src))
	Copy(unsafe.Pointer(&dst[0]), nil, unsafe.Pointer(&src[0]), nil, shape, 4)
	if !bytes.Equal(dst, src) {
		t.Errorf("nil strides: got %x, want %x", dst, src)
	}
	// nil source strides into a transposed destination.
	got := newBuffer(t, shape, []int64{1, 3}, 4, 0)
	want := newBuffer(t, shape, []int64{1, 3}, 4, 0)
	refCopy(want, &buffer{mem: src, strides: []int64{5, 1}}, shape, 4)
	Copy(got.ptr(), got.strides, unsafe.Pointer(&src[0]), nil, shape, 4)
	if !bytes.Equal(got.mem, want.mem) {
		t.Errorf("nil source strides: got %x, want %x", got.mem, want.mem)
	}
}

func TestCopyPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Copy with mismatched strides did not panic")
		}
	}()
	var x [8]byte
	Copy(unsafe.Pointer(&x), []int64{1}, unsafe.Pointer(&x), []int64{1, 1}, []int64{1, 1}, 1)
}

// randomLayout returns strides for shape, whose dimensions are positive,
// that view a slice of some larger array: the dimensions permuted, each
// stepped by ±1 or ±2. When contiguous, they are the row-major strides.
func randomLayout(r *rand.Rand, shape []int64, contiguous bool) []int64 {
	n := len(shape)
	perm := r.Perm(n)
	strides := make([]int64, n)
	s := int64(1)
	for k := range n {
		i, step, gap := n-1-k, int64(1), int64(1)
		if !contiguous {
			i, step, gap = perm[k], int64(1+r.IntN(2)), int64(1+r.IntN(2))
			if r.IntN(3) == 0 {
				step = -step
			}
		}
		strides[i] = s * step
		s *= shape[i] * gap
	}
	return strides
}

func TestCopyRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 500 {
		nd := r.IntN(5)
		shape := make([]int64, nd)
		for i := range shape {
			shape[i] = int64(1 + r.IntN(5))
		}
		size := []int{1, 2, 4, 8, 16, 5}[r.IntN(6)]
		dst := randomLayout(r, shape, r.IntN(2) == 0)
		checkCopy(t, r, shape, dst, randomLayout(r, shape, false), size)
		if t.Failed() {
			return
		}
	}
}

func BenchmarkCopy(b *testing.B) {
	const n = 1024
	shape := []int64{n, n}
	src := make([]float32, n*n)
	dst := make([]float32, n*n)
	for _, bm := range []struct {
		name string
		s    []int64
	}{
		{"contiguous", []int64{n, 1}},
		{"transposed", []int64{1, n}},
		{"reversed", []int64{n, -1}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			base := unsafe.Pointer(&src[0])
			if bm.s[1] < 0 {
				base = unsafe.Pointer(&src[n-1])
			}
			b.SetBytes(n * n * 4)
			for b.Loop() {
				Copy(unsafe.Pointer(&dst[0]), []int64{n, 1}, base, bm.s, shape, 4)
			}
		})
	}
}
