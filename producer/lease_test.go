package producer_test

import (
	"errors"
	"testing"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/ownertest"
	"github.com/godlpack/godlpack/producer"
)

// TestLeaseCopiesShareOneReference: the first copy released spends them all,
// also once the lease's Buffer serves a new lease, which a spent copy must
// never release.
func TestLeaseCopiesShareOneReference(t *testing.T) {
	before := ownertest.Live()
	for range 100 { // the Buffer of a spent lease comes back from the pool, sooner or later
		l, err := producer.AllocLease(16)
		if err != nil {
			t.Fatal(err)
		}
		if l.Pointer() == nil || l.Len() != 16 {
			t.Fatalf("a new lease: Pointer %p, Len %d", l.Pointer(), l.Len())
		}
		spent := l
		l.Release()
		if spent.Pointer() != nil || spent.Len() != 0 {
			t.Fatalf("a spent copy: Pointer %p, Len %d, want nil and 0", spent.Pointer(), spent.Len())
		}
		next, err := producer.AllocLease(8)
		if err != nil {
			t.Fatal(err)
		}
		spent.Release() // does nothing, whichever Buffer next has
		if err := spent.Give(producer.Layout{Shape: []int64{2}, DType: dlpack.Float32}, nil); !errors.Is(err, producer.ErrReleased) {
			t.Fatalf("Give of a spent lease = %v, want ErrReleased", err)
		}
		if next.Pointer() == nil || next.Len() != 8 {
			t.Fatalf("a spent lease's Release reached a new one: Pointer %p, Len %d", next.Pointer(), next.Len())
		}
		next.Release()
	}
	if got := ownertest.Live(); got != before {
		t.Errorf("%d owners alive after the leases, %d before", got, before)
	}
}

func TestLeaseOfBuffer(t *testing.T) {
	before := ownertest.Live()
	b, err := producer.Pin([]float32{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	l := producer.LeaseOf(b)
	copied := l
	if l.Len() != 12 || l.Pointer() != b.Pointer() {
		t.Errorf("LeaseOf: Len %d, Pointer %p; want 12 and the buffer's %p", l.Len(), l.Pointer(), b.Pointer())
	}
	l.Release()
	copied.Release()
	if b.Pointer() != nil {
		t.Error("spending a LeaseOf did not release its buffer")
	}
	if got := ownertest.Live(); got != before {
		t.Errorf("%d owners alive after the lease, %d before", got, before)
	}
	var zero producer.Lease
	if !zero.IsZero() || l.IsZero() || zero.Pointer() != nil {
		t.Error("IsZero or the zero Lease's Pointer is wrong")
	}
	zero.Release() // does nothing
}

func TestAllocLeaseAllocatesNothing(t *testing.T) {
	if n := testing.AllocsPerRun(1000, func() {
		l, err := producer.AllocLease(64)
		if err != nil {
			t.Fatal(err)
		}
		l.Release()
	}); n != 0 {
		t.Errorf("AllocLease and Release allocate %v times on the Go heap, want none", n)
	}
	if _, err := producer.AllocLease(-1); err == nil {
		t.Error("AllocLease(-1) succeeded")
	}
}
