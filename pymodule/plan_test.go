package pymodule

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

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

// TestFieldAccessors: a Field's accessor is called once, on a zero value, and
// must return the address of a field of its argument; the class's check says
// what is wrong with one that does not, before the module is made.
func TestFieldAccessors(t *testing.T) {
	type point struct {
		X, Y float64
		N    int32
	}
	type holder struct{ p *point }
	var global float64
	tests := []struct {
		name  string
		class Class
		want  string // "" for no error
	}{
		{"field", NewClass[point]("P", "", Field("y", func(p *point) *float64 { return &p.Y }, "")), ""},
		{"last", NewClass[point]("P", "", Field("n", func(p *point) *int32 { return &p.N }, "")), ""},
		{"through a pointer", NewClass[holder]("H", "", Field("x", func(h *holder) *float64 { return &h.p.X }, "")),
			"class H: field x: its accessor panicked on a zero pymodule.holder"},
		{"not in the value", NewClass[point]("P", "", Field("g", func(*point) *float64 { return &global }, "")),
			"class P: field g: its accessor must return the address of a field of its argument, a *pymodule.point"},
		{"another type's", NewClass[holder]("H", "", Field("y", func(p *point) *float64 { return &p.Y }, "")),
			"class H: field y: a field of pymodule.point, in the class of pymodule.holder"},
		{"no size", NewClass[struct{}]("Token", ""),
			"class Token: a Go type of no size (struct {}) has no address of its own for each value: give it a field"},
		{"an array of no size", NewClass[[0]int64]("Empty", ""), "class Empty: a Go type of no size ([0]int64)"},
	}
	for _, tt := range tests {
		err := tt.class.def.check()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: check() = %v, want %q", tt.name, err, tt.want)
		}
	}
	if f := NewClass[point]("P", "", Field("n", func(p *point) *int32 { return &p.N }, "")).def.props[0].field; f.offset != 16 || f.kind != kindInt32 {
		t.Errorf("field n: offset %d, kind %d; want 16 and kindInt32", f.offset, f.kind)
	}
}

// TestSlotPins checks the pins of values whose fields C reads: one per slot
// however many reads, let go with the slot, and made again for the slot's
// next value. A pin that outlived its slot would keep its value alive.
func TestSlotPins(t *testing.T) {
	table := &classTable{def: &classDef{name: "Probe"}}
	type value struct {
		n    int64
		name string // a Go pointer inside: the kind of value cgo would refuse to hand C unpinned
	}
	freed := make(chan int64, 2)
	hold := func(n int64) int32 {
		v := &value{n: n, name: fmt.Sprint(n)}
		runtime.AddCleanup(v, func(n int64) { freed <- n }, n)
		s, err := table.hold(unsafe.Pointer(v))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := hold(1)
	table.pin(first)
	table.pin(first)
	table.release(first)
	second := hold(2)
	if second != first {
		t.Fatalf("the released slot %d was not reused: got %d", first, second)
	}
	if v := (*value)(table.pin(second)); v.n != 2 || v.name != "2" {
		t.Fatalf("pin(%d) = %+v, want the slot's new value 2", second, *v)
	}
	if pin := &table.pins[0][second]; !pin.pinned {
		t.Fatalf("slot %d's new value is not pinned", second)
	}
	table.release(second)
	if pin := &table.pins[0][second]; pin.pinned {
		t.Fatalf("slot %d is still pinned after its release", second)
	}
	got := map[int64]bool{}
	for deadline := time.Now().Add(10 * time.Second); len(got) < 2 && time.Now().Before(deadline); {
		runtime.GC()
		select {
		case n := <-freed:
			got[n] = true
		case <-time.After(10 * time.Millisecond):
		}
	}
	if len(got) != 2 {
		t.Fatalf("values freed after their slots' release: %v, want 1 and 2", got)
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
