package pymodule

import (
	"math/rand/v2"
	"testing"
)

// TestSlotIndex runs random insertions, lookups and deletions against a Go
// map, with keys made to collide (few distinct homes in a small table) as
// well as spread, so that runs wrap around the table's end and deletions
// move entries back over their holes.
func TestSlotIndex(t *testing.T) {
	for _, tt := range []struct {
		name   string
		keys   int     // distinct keys drawn from
		stride uintptr // between keys: a multiple of the table's size collides
	}{
		{"spread", 5000, 16},
		{"aligned to 4 KiB", 300, 4096},
		{"few keys", 12, 8},
	} {
		var x slotIndex
		want := map[uintptr]int32{}
		r := rand.New(rand.NewPCG(1, uint64(tt.keys)))
		for step := range 200_000 {
			key := uintptr(1+r.IntN(tt.keys)) * tt.stride
			switch r.IntN(3) {
			case 0:
				x.put(key, int32(step))
				want[key] = int32(step)
			case 1:
				x.delete(key)
				delete(want, key)
			}
			got, ok := x.get(key)
			if w, wok := want[key]; ok != wok || ok && got != w {
				t.Fatalf("%s, step %d: get(%#x) = %d, %v; want %d, %v", tt.name, step, key, got, ok, w, wok)
			}
			if x.n != len(want) {
				t.Fatalf("%s, step %d: %d keys, want %d", tt.name, step, x.n, len(want))
			}
		}
		for key, w := range want {
			if got, ok := x.get(key); !ok || got != w {
				t.Errorf("%s: at the end, get(%#x) = %d, %v; want %d", tt.name, key, got, ok, w)
			}
		}
	}
	var empty slotIndex
	empty.delete(8)
	if _, ok := empty.get(8); ok {
		t.Error("the zero slotIndex holds a key")
	}
}

func TestSlotIndexAllocatesNothing(t *testing.T) {
	var x slotIndex
	x.put(64, 1)
	if n := testing.AllocsPerRun(1000, func() {
		x.put(128, 2)
		x.delete(128)
	}); n != 0 {
		t.Errorf("put and delete of a table that need not grow: %v allocations, want 0", n)
	}
}
