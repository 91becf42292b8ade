package pymodule

import (
	"fmt"
	"runtime"
	"testing"
	"time"
	"unsafe"
)

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
