package producer_test

import (
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/testing/ownertest"
	"github.com/godlpack/godlpack/testing/producertest"
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

// TestSmallBlocksAreReused: the memory of a released small lease serves the
// next one, taken from producer.h's spares without a call into C, and is
// counted live again; many goroutines taking and giving back blocks of both
// sizes share the spares without losing an owner or sharing one.
func TestSmallBlocksAreReused(t *testing.T) {
	before := ownertest.Live()
	first, err := producer.AllocLease(1)
	if err != nil {
		t.Fatal(err)
	}
	at := first.Pointer()
	first.Release()
	again, err := producer.AllocLease(256)
	if err != nil {
		t.Fatal(err)
	}
	if again.Pointer() != at {
		t.Errorf("a 256-byte lease after a 1-byte one was released is at %p, want its block, at %p", again.Pointer(), at)
	}
	if got := ownertest.Live(); got != before+1 {
		t.Errorf("%d owners alive with a reused block leased, want %d", got, before+1)
	}
	again.Release()

	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 2000 {
				n := []int{0, 1, 100, 256, 257, 5000}[(g+i)%6]
				l, err := producer.AllocLease(n)
				if err != nil {
					t.Error(err)
					return
				}
				mem := unsafe.Slice((*byte)(l.Pointer()), n)
				for j := range mem {
					mem[j] = byte(g)
				}
				runtime.Gosched()
				for j := range mem {
					if mem[j] != byte(g) {
						t.Errorf("goroutine %d: byte %d of its %d-byte lease is %d: another lease shares it", g, j, n, mem[j])
						return
					}
				}
				l.Release()
			}
		}()
	}
	wg.Wait()
	if got := ownertest.Live(); got != before {
		t.Errorf("%d owners alive after the leases, %d before", got, before)
	}
}

// TestGiveContiguous: a lease given unlaid is laid out in C as Layout.Check
// would lay it out, C-contiguous at the start of its memory, and refused
// where its elements would not fit or the layout rule refuses it.
func TestGiveContiguous(t *testing.T) {
	f4 := dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 1}
	tests := []struct {
		size        int
		shape       []int64
		dt          dlpack.DataType
		wantStrides []int64
		wantBytes   int64
		ok          bool
	}{
		{4, nil, dlpack.Float32, []int64{}, 4, true},
		{24, []int64{2, 3}, dlpack.Float32, []int64{3, 1}, 24, true},
		{64, []int64{2, 3}, dlpack.Float32, []int64{3, 1}, 24, true}, // room to spare
		{0, []int64{0, 5}, dlpack.Int64, []int64{5, 1}, 0, true},
		{1, []int64{2}, f4, []int64{1}, 1, true},
		{20, []int64{2, 3}, dlpack.Float32, nil, 0, false}, // 24 bytes into 20
		{8, []int64{-1}, dlpack.Float32, nil, 0, false},
		{8, []int64{1 << 62, 4}, dlpack.Float32, nil, 0, false},
	}
	before := ownertest.Live()
	for _, tt := range tests {
		l, err := producer.AllocLease(tt.size)
		if err != nil {
			t.Fatal(err)
		}
		start, wantNeed := l.Pointer(), dlpack.MinVersion(tt.dt, dlpack.Device{Type: dlpack.CPU})
		got, ok, err := producertest.GiveLaidOut(l, tt.shape, tt.dt)
		if err != nil {
			t.Fatalf("shape %v of %v: %v", tt.shape, tt.dt, err)
		}
		if ok != tt.ok {
			t.Errorf("shape %v of %v in %d bytes: laid out %v, want %v", tt.shape, tt.dt, tt.size, ok, tt.ok)
			continue
		}
		want := producertest.LaidOut{Data: start, Shape: tt.shape, Strides: tt.wantStrides, DType: tt.dt,
			Device: dlpack.Device{Type: dlpack.CPU}, NBytes: tt.wantBytes, Need: wantNeed}
		if ok && (got.Data != want.Data || !slices.Equal(got.Shape, want.Shape) || !slices.Equal(got.Strides, want.Strides) ||
			got.DType != want.DType || got.Device != want.Device || got.Flags != want.Flags || got.NBytes != want.NBytes ||
			got.Need != want.Need) {
			t.Errorf("shape %v of %v: laid out %+v, want %+v", tt.shape, tt.dt, got, want)
		}
		if err := l.GiveContiguous(tt.shape, tt.dt, nil); !errors.Is(err, producer.ErrReleased) {
			t.Errorf("GiveContiguous of a spent lease = %v, want ErrReleased", err)
		}
	}
	l, _ := producer.AllocLease(8)
	if _, _, err := producertest.GiveLaidOut(l, make([]int64, dlpack.MaxNDim+1), dlpack.Uint8); err == nil {
		t.Errorf("GiveContiguous of %d dimensions succeeded", dlpack.MaxNDim+1)
	}
	if got := ownertest.Live(); got != before {
		t.Errorf("%d owners alive after the leases, %d before", got, before)
	}
}

// TestZeroedBuffersAreZero: AllocZeroed and AllocLeaseZeroed give zero bytes
// whether the block is fresh from C, a small spare that a released buffer
// left dirty (taken by Go), or large enough for calloc to map it.
func TestZeroedBuffersAreZero(t *testing.T) {
	type alloc func(n int) (unsafe.Pointer, func(), error)
	buffer := func(n int) (unsafe.Pointer, func(), error) {
		b, err := producer.AllocZeroed(n)
		if err != nil {
			return nil, nil, err
		}
		return b.Pointer(), b.Release, nil
	}
	lease := func(n int) (unsafe.Pointer, func(), error) {
		l, err := producer.AllocLeaseZeroed(n)
		return l.Pointer(), l.Release, err
	}
	for _, tt := range []struct {
		name  string
		alloc alloc
	}{{"AllocZeroed", buffer}, {"AllocLeaseZeroed", lease}} {
		for _, n := range []int{0, 1, 100, 256, 257, 5000, 64 << 20} {
			for round := range 3 { // the later rounds reuse the spares the dirty blocks went back to
				p, release, err := tt.alloc(n)
				if err != nil {
					t.Fatal(err)
				}
				mem := unsafe.Slice((*byte)(p), n)
				if i := slices.IndexFunc(mem, func(b byte) bool { return b != 0 }); i >= 0 {
					t.Errorf("%s(%d), round %d: byte %d is %#x, want 0", tt.name, n, round, i, mem[i])
				}
				for i := range mem {
					mem[i] = 0xAB
				}
				release()
			}
		}
	}
	if _, err := producer.AllocZeroed(-1); err == nil {
		t.Error("AllocZeroed(-1) succeeded")
	}
}

// TestReferencesCountEveryHolder: References counts the buffer, its leases
// and its exports, each until let go, on whatever goroutine lets it go.
func TestReferencesCountEveryHolder(t *testing.T) {
	before := ownertest.Live()
	b, err := producer.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	if n := b.References(); n != 1 {
		t.Fatalf("a new buffer: %d references, want 1", n)
	}
	var leases []producer.Lease
	for i := range 3 {
		l, err := b.Lease()
		if err != nil {
			t.Fatal(err)
		}
		if l.Pointer() != b.Pointer() || l.Len() != 64 {
			t.Fatalf("a lease of the buffer: Pointer %p, Len %d; want %p, 64", l.Pointer(), l.Len(), b.Pointer())
		}
		leases = append(leases, l)
		if n := b.References(); n != 2+i {
			t.Fatalf("%d leases: %d references", i+1, n)
		}
	}
	m, err := b.Export(producer.Layout{Shape: []int64{16}, DType: dlpack.Float32}, dlpack.Current)
	if err != nil {
		t.Fatal(err)
	}
	if n := b.References(); n != 5 {
		t.Fatalf("3 leases and an export: %d references, want 5", n)
	}
	var wg sync.WaitGroup
	for _, release := range []func(){leases[0].Release, leases[1].Release, leases[2].Release, m.Delete} {
		wg.Add(1)
		go func() { defer wg.Done(); release() }()
	}
	wg.Wait()
	if n := b.References(); n != 1 {
		t.Fatalf("all let go: %d references, want 1", n)
	}
	b.Release()
	if n := b.References(); n != 0 {
		t.Fatalf("released: %d references, want 0", n)
	}
	if _, err := b.Lease(); !errors.Is(err, producer.ErrReleased) {
		t.Fatalf("Lease of a released buffer: %v", err)
	}
	if live := ownertest.Live(); live != before {
		t.Fatalf("%d owners live, %d before", live, before)
	}
}
