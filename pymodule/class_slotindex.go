package pymodule

import (
	"math/bits"
)

// A slotIndex maps the address of a class's Go value to the slot of its
// classTable that holds it: an open-addressed table with linear probing,
// for the insertion when an instance is made and the deletion when it dies.
// A Go map cost about 270 instructions for the two, a third of them redrawing
// its hash seed each time it became empty. Keys are addresses of Go heap
// values, which the table's slots keep alive and in place: none is chosen by
// a caller, so a fixed hash cannot be flooded. The zero slotIndex is empty;
// the GIL serializes its use, as it does the classTable's.
type slotIndex struct {
	keys  []uintptr // 0 where empty; a power of two long
	slots []int32
	n     int
	shift uint // 64 - log2(len(keys))
}

// home returns where key's probe starts: Fibonacci hashing, whose top bits
// mix all of the address's (its low ones are alignment, the same for all).
func (x *slotIndex) home(key uintptr) int {
	return int((uint64(key) * 0x9e3779b97f4a7c15) >> x.shift)
}

// find returns the position of key, or of the empty entry where its probe ends.
func (x *slotIndex) find(key uintptr) int {
	mask := len(x.keys) - 1
	i := x.home(key)
	for x.keys[i] != key && x.keys[i] != 0 {
		i = (i + 1) & mask
	}
	return i
}

// get returns key's slot, and whether key is in the index.
func (x *slotIndex) get(key uintptr) (int32, bool) {
	if x.n == 0 {
		return 0, false
	}
	i := x.find(key)
	return x.slots[i], x.keys[i] == key
}

// put maps key, which is not 0, to slot.
func (x *slotIndex) put(key uintptr, slot int32) {
	if 2*(x.n+1) > len(x.keys) { // at most half full: probes stay short
		x.grow()
	}
	i := x.find(key)
	if x.keys[i] == 0 {
		x.n++
	}
	x.keys[i], x.slots[i] = key, slot
}

// grow doubles the table (to 8 entries at first) and puts every key back.
func (x *slotIndex) grow() {
	keys, slots := x.keys, x.slots
	size := max(8, 2*len(keys))
	x.keys, x.slots = make([]uintptr, size), make([]int32, size)
	x.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for i, k := range keys {
		if k != 0 {
			j := x.find(k)
			x.keys[j], x.slots[j] = k, slots[i]
		}
	}
}

// delete removes key, if it is in the index. The entries after it in its
// run move back over the hole where their probe would otherwise stop short
// of them (no tombstones: a lookup never walks past deleted entries).
func (x *slotIndex) delete(key uintptr) {
	if x.n == 0 {
		return
	}
	i := x.find(key)
	if x.keys[i] != key {
		return
	}
	x.n--
	mask := len(x.keys) - 1
	for j := (i + 1) & mask; x.keys[j] != 0; j = (j + 1) & mask {
		// The entry at j may fill the hole at i unless its home lies
		// cyclically in (i, j]: then its probe never passes i.
		if h := x.home(x.keys[j]); (j-h)&mask >= (j-i)&mask {
			x.keys[i], x.slots[i] = x.keys[j], x.slots[j]
			i = j
		}
	}
	x.keys[i] = 0
}
