package pymodule

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/producer"
)

// TestBufferGrows: appends of one element and of slices, their own
// included, keep every element, the capacity at least doubling.
func TestBufferGrows(t *testing.T) {
	var b Buffer[int32]
	defer b.Free()
	var want []int32
	caps := map[int]bool{}
	for i := range int32(1000) {
		if err := b.Append(i); err != nil {
			t.Fatal(err)
		}
		want = append(want, i)
		caps[b.Cap()] = true
	}
	if len(caps) > 10 { // 16, 32, … 1024: geometric
		t.Errorf("%d capacities for 1000 appends: %v", len(caps), caps)
	}
	if err := b.AppendSlice(b.Slice()); err != nil { // its own elements, from memory the growth moves
		t.Fatal(err)
	}
	want = append(want, want...)
	if err := b.AppendSlice(nil); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(b.Slice(), want) || b.Len() != 2000 || b.Cap() < 2000 {
		t.Fatalf("Len %d Cap %d, elements differ: %v", b.Len(), b.Cap(), !slices.Equal(b.Slice(), want))
	}
	if err := b.Reserve(5000); err != nil || b.Cap() < 7000 || !slices.Equal(b.Slice(), want) {
		t.Fatalf("Reserve(5000): %v, Cap %d", err, b.Cap())
	}
	p := unsafe.SliceData(b.Slice())
	for range 5000 { // room reserved: nothing moves
		if err := b.Append(7); err != nil {
			t.Fatal(err)
		}
	}
	if unsafe.SliceData(b.Slice()) != p {
		t.Error("appends within the reserved room moved the elements")
	}
	if err := b.Truncate(3); err != nil || !slices.Equal(b.Slice(), []int32{0, 1, 2}) {
		t.Fatalf("Truncate(3): %v, %v", err, b.Slice())
	}
	if err := b.Reset(); err != nil || b.Len() != 0 || b.Cap() < 7000 {
		t.Fatalf("Reset: %v, Len %d Cap %d", err, b.Len(), b.Cap())
	}
	if err := b.Free(); err != nil || b.Len() != 0 || b.Cap() != 0 || b.Slice() != nil {
		t.Fatalf("Free: %v, Len %d Cap %d", err, b.Len(), b.Cap())
	}
	if err := b.Append(9); err != nil || !slices.Equal(b.Slice(), []int32{9}) { // a freed Buffer is a zero one
		t.Fatalf("Append after Free: %v, %v", err, b.Slice())
	}
}

// TestBufferRefusals: what a Buffer cannot do is an error of the kind a
// bound function raises, and leaves it as it was.
func TestBufferRefusals(t *testing.T) {
	var b Buffer[float64]
	defer b.Free()
	if err := b.AppendSlice([]float64{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		do   func() error
		exc  cpython.Exception
		want string
	}{
		{"negative reserve", func() error { return b.Reserve(-1) }, cpython.ValueError, "Reserve(-1): a negative count"},
		{"bytes past an int", func() error { return b.Reserve(math.MaxInt / 8) }, cpython.MemoryError,
			"a Buffer of 3 float64 elements cannot grow by 1152921504606846975: their bytes would overflow an int"},
		{"elements past an int", func() error { return b.Reserve(math.MaxInt) }, cpython.MemoryError, "overflow an int"},
		{"past the allocator", func() error { return b.Reserve(1 << 58) }, cpython.MemoryError,
			"a Buffer of 3 float64 elements cannot grow by 288230376151711744: producer: out of memory"},
		{"truncate past", func() error { return b.Truncate(4) }, cpython.ValueError, "Truncate(4) of a Buffer of 3 elements"},
		{"truncate negative", func() error { return b.Truncate(-1) }, cpython.ValueError, "Truncate(-1)"},
		{"view past", func() error { _, err := b.View(2, 2); return err }, cpython.ValueError,
			"a view of shape [2 2] of a Buffer of 3 elements"},
		{"view negative", func() error { _, err := b.View(-1); return err }, cpython.ValueError, "a view of shape [-1]"},
		{"view overflowing", func() error { _, err := b.View(1<<62, 1<<62); return err }, cpython.ValueError, "a view of shape"},
		{"view of 65 dimensions", func() error { _, err := b.View(make([]int64, 65)...); return err }, cpython.ValueError,
			"a view of shape"},
	}
	if v, err := b.View(1<<62, 1<<62, 0); err != nil { // no elements, as NumPy's (2**62, 2**62, 0) has none
		t.Errorf("a view of shape (2**62, 2**62, 0): %v", err)
	} else {
		v.Release()
	}
	for _, tt := range tests {
		err := tt.do()
		if err == nil || cpython.ExceptionOf(err) != tt.exc || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v (%v), want %v containing %q", tt.name, err, cpython.ExceptionOf(err), tt.exc, tt.want)
		}
		if !slices.Equal(b.Slice(), []float64{1, 2, 3}) {
			t.Fatalf("%s: the elements are now %v", tt.name, b.Slice())
		}
	}
	if err := b.Reserve(1 << 58); !errors.Is(err, producer.ErrNoMemory) {
		t.Errorf("a growth the allocator refuses: %v, want producer.ErrNoMemory wrapped", err)
	}
}

// TestBufferViews: while a view lives the Buffer cannot change its length
// or its memory (BufferError, as bytearray); what changes nothing goes
// through, and so does writing elements in place.
func TestBufferViews(t *testing.T) {
	var b Buffer[uint16]
	defer b.Free()
	if err := b.AppendSlice([]uint16{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	v, err := b.View(2, 2)
	if err != nil {
		t.Fatal(err)
	}
	w, err := b.View()
	if err != nil {
		t.Fatal(err)
	}
	if b.Views() != 2 || !v.view || v.lease.Pointer() != unsafe.Pointer(unsafe.SliceData(b.Slice())) {
		t.Fatalf("Views %d, view %v", b.Views(), v.view)
	}
	refused := map[string]func() error{
		"Append":      func() error { return b.Append(5) },
		"AppendSlice": func() error { return b.AppendSlice([]uint16{5}) },
		"Reserve":     func() error { return b.Reserve(b.Cap()) }, // must grow
		"Truncate":    func() error { return b.Truncate(1) },
		"Reset":       b.Reset,
		"Free":        b.Free,
	}
	for name, do := range refused {
		err := do()
		if !errors.Is(err, ErrViewed) || cpython.ExceptionOf(err) != cpython.BufferError ||
			err.Error() != "Existing exports of data: the buffer cannot be resized: 2 views of it alive" {
			t.Errorf("%s with views alive: %v", name, err)
		}
	}
	for name, do := range map[string]func() error{
		"AppendSlice(nil)": func() error { return b.AppendSlice(nil) },
		"Reserve(room)":    func() error { return b.Reserve(b.Cap() - b.Len()) },
		"Truncate(Len)":    func() error { return b.Truncate(b.Len()) },
		"Reserve(0)":       func() error { return b.Reserve(0) },
		"a write in place": func() error { b.Slice()[0] = 10; return nil },
		"another view":     func() error { u, err := b.View(1); u.Release(); return err },
	} {
		if err := do(); err != nil {
			t.Errorf("%s with views alive: %v", name, err)
		}
	}
	if !slices.Equal(b.Slice(), []uint16{10, 2, 3, 4}) {
		t.Fatalf("the elements are now %v", b.Slice())
	}
	v.Release()
	if b.Views() != 1 {
		t.Fatalf("one view released: Views %d", b.Views())
	}
	w.Release()
	if err := b.Append(5); err != nil || b.Views() != 0 {
		t.Fatalf("views released: Append: %v, Views %d", err, b.Views())
	}
}

// TestAnEmptyBuffersViewHoldsItToo: a view of no elements keeps the Buffer
// from growing, as a memoryview of an empty bytearray does.
func TestAnEmptyBuffersViewHoldsItToo(t *testing.T) {
	var b Buffer[bool]
	defer b.Free()
	v, err := b.View()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Append(true); !errors.Is(err, ErrViewed) {
		t.Errorf("Append with an empty view alive: %v", err)
	}
	v.Release()
	if err := b.Append(true); err != nil {
		t.Errorf("Append once it is released: %v", err)
	}
}

// TestBuffersOfAValue: the Buffers an instance's death frees are those in
// its value's fields and arrays, not those behind pointers, slices or maps.
func TestBuffersOfAValue(t *testing.T) {
	type inner struct {
		n    int
		tail Buffer[int8]
	}
	type value struct {
		name   string
		head   Buffer[float32]
		pairs  [2]struct{ a, b Buffer[int64] }
		nested inner
		shared *Buffer[int8]
		many   []Buffer[int8]
		byKey  map[string]*Buffer[int8]
	}
	var v value
	got := buffersIn(reflect.TypeFor[value](), 0, nil)
	base := uintptr(unsafe.Pointer(&v))
	want := []uintptr{}
	for _, c := range []*bufferCore{&v.head.core, &v.pairs[0].a.core, &v.pairs[0].b.core, &v.pairs[1].a.core,
		&v.pairs[1].b.core, &v.nested.tail.core} {
		want = append(want, uintptr(unsafe.Pointer(c))-base)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("buffersIn = %v, want %v", got, want)
	}
	var shared Buffer[int8]
	defer shared.Free()
	v.shared = &shared
	for _, err := range []error{v.head.Append(1), v.pairs[1].b.AppendSlice([]int64{1, 2}), v.nested.tail.Append(3),
		shared.Append(4)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	view, err := v.head.View()
	if err != nil {
		t.Fatal(err)
	}
	freeBuffers(unsafe.Pointer(&v), got)
	if v.head.Len()+v.head.Cap()+v.pairs[1].b.Len()+v.nested.tail.Cap() != 0 || shared.Len() != 1 {
		t.Errorf("after freeBuffers: head %d/%d, pairs[1].b %d, tail %d; shared %d",
			v.head.Len(), v.head.Cap(), v.pairs[1].b.Len(), v.nested.tail.Cap(), shared.Len())
	}
	if p := (*float32)(view.lease.Pointer()); p == nil || *p != 1 { // a view of it keeps the memory
		t.Errorf("the view of a freed Buffer reads %v", p)
	}
	view.Release()
}

// TestViewsBesideViews: views may be made on many goroutines at once, as
// calls that only read an instance make them, an empty Buffer's first
// included: they all hold its one memory.
func TestViewsBesideViews(t *testing.T) {
	for _, n := range []int{0, 5} {
		var b Buffer[float32]
		if err := b.AppendSlice(make([]float32, n)); err != nil {
			t.Fatal(err)
		}
		views := make([]Array, 8)
		var wg sync.WaitGroup
		for i := range views {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if views[i], err = b.View(); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		if b.Views() != len(views) || b.Append(1) == nil {
			t.Errorf("%d elements: %d views alive, want %d, and no append", n, b.Views(), len(views))
		}
		for _, v := range views {
			v.Release()
		}
		if err := b.Free(); err != nil {
			t.Error(err)
		}
	}
}

// TestAViewAllocatesNothing: a view, as a getter makes one per call, costs
// no Go heap allocation once leases are reused, and appends none either.
func TestAViewAllocatesNothing(t *testing.T) {
	var b Buffer[float32]
	defer b.Free()
	if err := b.Reserve(1 << 10); err != nil {
		t.Fatal(err)
	}
	rows := int64(3)
	if n := testing.AllocsPerRun(100, func() {
		v, err := b.View(rows, 0)
		if err != nil {
			t.Fatal(err)
		}
		v.Release()
		if err := b.Append(1); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("View, Release and Append: %v allocations a run", n)
	}
}
