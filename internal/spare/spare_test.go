package spare

import (
	"sync"
	"testing"
)

func TestTakeGive(t *testing.T) {
	var s Slots[int]
	if v := s.Take(); v != nil {
		t.Fatalf("Take of empty slots = %v, want nil", v)
	}
	values := make([]*int, 5)
	for i := range values {
		values[i] = new(int)
		*values[i] = i
	}
	for _, v := range values {
		s.Give(v)
	}
	seen := map[*int]bool{}
	for range len(s.slot) {
		v := s.Take()
		if v == nil || seen[v] {
			t.Fatalf("Take = %p, want one of the four values given, each once (seen %v)", v, seen)
		}
		seen[v] = true
	}
	if v := s.Take(); v != nil {
		t.Errorf("Take after four takes = %d, want nil", *v)
	}
	if seen[values[4]] {
		t.Error("the fifth value, given to full slots, was kept")
	}
}

// TestNoValueTwice has goroutines take and give back values at once: no
// value may be out with two of them.
func TestNoValueTwice(t *testing.T) {
	var s Slots[int]
	for range len(s.slot) {
		s.Give(new(int))
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10000 {
				v := s.Take()
				if v == nil {
					v = new(int)
				}
				*v++
				if *v%2 != 1 {
					t.Errorf("a value taken was held elsewhere: it counts %d", *v)
					return
				}
				*v++
				s.Give(v)
			}
		}()
	}
	wg.Wait()
}
