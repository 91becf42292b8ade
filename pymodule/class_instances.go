package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
)

// The slots of a class's table: chunks of classChunk values, published
// atomically, so that a call that released the GIL reads its instance's
// value while another thread, holding the GIL, adds one.
const (
	classChunk  = 1 << 10
	classChunks = 1 << 14 // 16M instances of a class alive at once
)

// A classTable keeps alive the Go values a class's instances hold, each in
// a slot the instance names. It is changed with the GIL held (an instance
// made, an instance's death); its values are read by calls, which may
// have released it.
type classTable struct {
	def    *classDef
	id     int32 // the C class record's
	chunks [classChunks]atomic.Pointer[[classChunk]unsafe.Pointer]
	next   int32
	free   []int32
	index  slotIndex              // which slot holds a value: one pointer, one instance
	pins   []*[classChunk]slotPin // by chunk, made at its first pin: the values whose fields C reads
}

// A slotPin holds a slot's value in place while C reads its fields
// (godlpackClassPin). Its Pinner is kept with the slot, for the slot's next
// value: no allocation, and no map, for a pin.
type slotPin struct {
	pinner runtime.Pinner
	pinned bool
}

// at returns the value in slot s.
func (t *classTable) at(s int32) unsafe.Pointer { return t.chunks[s/classChunk].Load()[s%classChunk] }

// hold puts p in a free slot.
func (t *classTable) hold(p unsafe.Pointer) (int32, error) {
	var s int32
	if n := len(t.free); n > 0 {
		s, t.free = t.free[n-1], t.free[:n-1]
	} else {
		if t.next == classChunk*classChunks {
			return 0, cpython.Errorf(cpython.MemoryError, "class %s: %d instances are alive, the most there may be",
				t.def.name, t.next)
		}
		s = t.next
		if t.chunks[s/classChunk].Load() == nil {
			t.chunks[s/classChunk].Store(new([classChunk]unsafe.Pointer))
		}
		t.next++
	}
	t.chunks[s/classChunk].Load()[s%classChunk] = p
	t.index.put(uintptr(p), s)
	return s, nil
}

// release lets go of slot s's value.
func (t *classTable) release(s int32) {
	chunk := t.chunks[s/classChunk].Load()
	freeBuffers(chunk[s%classChunk], t.def.buffers)
	t.index.delete(uintptr(chunk[s%classChunk]))
	chunk[s%classChunk] = nil
	if c := int(s / classChunk); c < len(t.pins) && t.pins[c] != nil {
		if pin := &t.pins[c][s%classChunk]; pin.pinned {
			pin.pinner.Unpin()
			pin.pinned = false
		}
	}
	t.free = append(t.free, s)
}

// pin pins slot s's value, once while the slot holds it, and returns it:
// its fields' address stays good until the slot's release.
func (t *classTable) pin(s int32) unsafe.Pointer {
	p := t.at(s)
	c := int(s / classChunk)
	for len(t.pins) <= c {
		t.pins = append(t.pins, nil)
	}
	if t.pins[c] == nil {
		t.pins[c] = new([classChunk]slotPin)
	}
	if pin := &t.pins[c][s%classChunk]; !pin.pinned {
		pin.pinner.Pin(p)
		pin.pinned = true
	}
	return p
}

// The tables of the library's classes, by C id: the library's, not a
// module's, since C names a class by its id alone (godlpackClassReleaseDead,
// from a deallocator with no module at hand), and a later module's functions
// take and return the classes of earlier ones.
var (
	tablesMu sync.Mutex
	tables   atomic.Pointer[[]*classTable]
)

func tableOf(id int32) *classTable { return (*tables.Load())[id] }

// instanceOf returns the Python object of p, a value of the class: the
// instance that holds it already, or a new one. With release set, the call
// has released the GIL, which this takes back meanwhile.
func (t *classTable) instanceOf(p unsafe.Pointer, release bool) (cpython.Object, error) {
	if release {
		g := C.PyGILState_Ensure()
		defer C.PyGILState_Release(g)
	}
	s, err := t.slotOf(p)
	if err != nil {
		return nil, err
	}
	o := C.gdl_instance_take(C.int32_t(t.id), C.int32_t(s))
	if o == nil {
		C.gdl_slot_drop(C.int32_t(t.id), C.int32_t(s))
		return nil, cpython.PythonError("making an instance of " + t.def.name)
	}
	return cpython.Object(o), nil
}

// slotOf returns the slot of p, a value of the class, holding it in a new
// one if none does. A slot whose instance died and whose
// value is in the batch waiting to be let go (gdl_dead) is taken out of it:
// its value gets a new instance. The GIL is held.
func (t *classTable) slotOf(p unsafe.Pointer) (int32, error) {
	if s, held := t.index.get(uintptr(p)); held {
		unbury(t.id, s)
		return s, nil
	}
	return t.hold(p)
}

// unbury takes class id's slot out of the batch of dead ones, if it is there.
func unbury(id, slot int32) {
	dead := unsafe.Slice((*C.gdl_slot)(unsafe.Pointer(&C.gdl_dead[0])), C.GDL_DEAD_BATCH)[:C.gdl_ndead]
	for i := range dead {
		if int32(dead[i].class_id) == id && int32(dead[i].slot) == slot {
			dead[i] = dead[len(dead)-1]
			C.gdl_ndead--
			return
		}
	}
}

// releaseDead lets go of the values whose instances died (gdl_dead). The
// GIL is held.
func releaseDead() {
	dead := unsafe.Slice((*C.gdl_slot)(unsafe.Pointer(&C.gdl_dead[0])), C.GDL_DEAD_BATCH)[:C.gdl_ndead]
	for _, d := range dead {
		tableOf(int32(d.class_id)).release(int32(d.slot))
	}
	C.gdl_ndead = 0
}

// godlpackClassPin pins the value in class id's slot, once, for C to read
// its fields (class.c's field_get), and returns its address; 0 if the
// runtime refused. The address crosses as a number: cgo checks a pointer
// result for Go pointers inside the value (a string field), which C never
// reads, and the pin is what lets C keep the address. The GIL is held.
//
//export godlpackClassPin
func godlpackClassPin(id, slot C.int32_t) (at C.uintptr_t) {
	defer func() {
		if recover() != nil {
			at = 0
		}
	}()
	p := tableOf(int32(id)).pin(int32(slot))
	return C.uintptr_t(uintptr(p))
}

// godlpackClassReleaseDead is a full batch of dead instances: their Go
// values are let go.
//
//export godlpackClassReleaseDead
func godlpackClassReleaseDead() {
	defer func() { _ = recover() }() // a dealloc cannot fail; a table is never wrong here
	releaseDead()
}
