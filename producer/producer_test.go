package producer_test

import (
	"errors"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/testing/ownertest"
)

// tensorOf returns the DLTensor and flags of a managed tensor.
func tensorOf(m dlpack.Managed) (*dlpack.Tensor, dlpack.Flags, dlpack.Version) {
	if m.Versioned {
		v := (*dlpack.ManagedTensorVersioned)(m.Pointer)
		return &v.DLTensor, v.Flags, v.Version
	}
	return &(*dlpack.ManagedTensor)(m.Pointer).DLTensor, 0, dlpack.Version{}
}

func TestNegotiate(t *testing.T) {
	v := func(major, minor uint32) dlpack.Version { return dlpack.Version{Major: major, Minor: minor} }
	tests := []struct {
		asked, need dlpack.Version
		readOnly    bool
		want        dlpack.Version
		err         bool
	}{
		{v(0, 0), v(0, 0), false, v(0, 0), false},
		{v(0, 9), v(0, 0), false, v(0, 0), false},
		{v(0, 0), v(0, 0), true, v(0, 0), true},   // legacy cannot say read-only
		{v(0, 0), v(1, 1), false, v(0, 0), true},  // float8 needs a versioned tensor
		{v(1, 0), v(0, 0), true, v(1, 0), false},  // versioned may be read-only
		{v(1, 2), v(0, 0), false, v(1, 2), false}, // the minor asked
		{v(1, 99), v(0, 0), false, dlpack.Current, false},
		{v(2, 0), v(0, 0), false, dlpack.Current, false},
		{v(1, 0), v(1, 1), false, v(1, 1), false}, // float8 asked as 1.0: exported at the 1.1 it needs
		{v(1, 1), v(1, 2), false, v(1, 2), false},
		{v(1, 3), v(1, 1), false, v(1, 3), false},
		{v(1, 0), dlpack.Current, false, dlpack.Current, false},
	}
	for _, tt := range tests {
		got, err := producer.Negotiate(tt.asked, tt.need, tt.readOnly)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("Negotiate(%v, %v, %v) = %v, %v; want %v, error %v", tt.asked, tt.need, tt.readOnly, got, err, tt.want, tt.err)
		}
		if err != nil && !errors.Is(err, producer.ErrVersion) {
			t.Errorf("Negotiate(%v, %v, %v): %v does not wrap ErrVersion", tt.asked, tt.need, tt.readOnly, err)
		}
	}
}

func TestExport(t *testing.T) {
	before := ownertest.Live()
	b, err := producer.Alloc(64)
	if err != nil {
		t.Fatal(err)
	}
	if uintptr(b.Pointer())%producer.Alignment != 0 {
		t.Errorf("Alloc data %p is not %d-byte aligned", b.Pointer(), producer.Alignment)
	}
	tests := []struct {
		name      string
		l         producer.Layout
		max       dlpack.Version
		versioned bool
		strides   []int64
		offset    int64
	}{
		{"legacy contiguous", producer.Layout{Shape: []int64{2, 3}, DType: dlpack.Float32}, dlpack.Version{}, false, []int64{3, 1}, 0},
		{"versioned 1.1", producer.Layout{Shape: []int64{2, 3}, DType: dlpack.Float32}, dlpack.Version{Major: 1, Minor: 1}, true, []int64{3, 1}, 0},
		{"transposed", producer.Layout{Shape: []int64{3, 2}, Strides: []int64{1, 3}, DType: dlpack.Int16}, dlpack.Current, true, []int64{1, 3}, 0},
		{"reversed", producer.Layout{Shape: []int64{4}, Strides: []int64{-1}, DType: dlpack.Float64, Offset: 24}, dlpack.Current, true, []int64{-1}, 24},
		{"read-only copied", producer.Layout{Shape: []int64{8}, DType: dlpack.Uint8, Flags: dlpack.ReadOnly | dlpack.IsCopied}, dlpack.Current, true, []int64{1}, 0},
		{"float4 x2, strided", producer.Layout{Shape: []int64{2, 3}, Strides: []int64{1, 2}, DType: dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 2}}, dlpack.Current, true, []int64{1, 2}, 0},
		{"float32 x4, legacy", producer.Layout{Shape: []int64{4}, DType: dlpack.DataType{Code: dlpack.Float, Bits: 32, Lanes: 4}}, dlpack.Version{}, false, []int64{1}, 0},
	}
	for _, tt := range tests {
		m, err := b.Export(tt.l, tt.max)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		dt, flags, v := tensorOf(m)
		want, _ := producer.Negotiate(tt.max, dlpack.MinVersion(tt.l.DType, dlpack.Device{Type: dlpack.CPU}), tt.l.Flags.Has(dlpack.ReadOnly))
		if m.Versioned != tt.versioned || v != want {
			t.Errorf("%s: versioned %v version %v, want %v %v", tt.name, m.Versioned, v, tt.versioned, want)
		}
		if dt.Data != unsafe.Add(b.Pointer(), tt.offset) || dt.ByteOffset != 0 || dt.DType != tt.l.DType ||
			dt.Device != (dlpack.Device{Type: dlpack.CPU}) || flags != tt.l.Flags {
			t.Errorf("%s: got %+v flags %v", tt.name, *dt, flags)
		}
		if got := dt.StridesSlice(); !slices.Equal(got, tt.strides) || !slices.Equal(dt.ShapeSlice(), tt.l.Shape) {
			t.Errorf("%s: shape %v strides %v, want %v %v", tt.name, dt.ShapeSlice(), got, tt.l.Shape, tt.strides)
		}
		m.Delete()
	}
	b.Release()
	b.Release() // a second Release does nothing
	if got := ownertest.Live(); got != before {
		t.Errorf("LiveOwners = %d after every release, want %d", got, before)
	}
}

func TestExportErrors(t *testing.T) {
	b, err := producer.Alloc(32)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	f8 := dlpack.DataType{Code: dlpack.Float8E4M3FN, Bits: 8, Lanes: 1}
	tests := []struct {
		name string
		l    producer.Layout
		max  dlpack.Version
		is   error
	}{
		{"too large", producer.Layout{Shape: []int64{9}, DType: dlpack.Float32}, dlpack.Current, nil},
		{"negative reach", producer.Layout{Shape: []int64{2}, Strides: []int64{-1}, DType: dlpack.Float32}, dlpack.Current, nil},
		{"negative dim", producer.Layout{Shape: []int64{-1}, DType: dlpack.Float32}, dlpack.Current, dlpack.ErrNegativeDim},
		{"unknown dtype", producer.Layout{Shape: []int64{1}, DType: dlpack.DataType{Code: 2, Bits: 24, Lanes: 1}}, dlpack.Current, dlpack.ErrUnknownDataType},
		{"vector of 12-bit elements", producer.Layout{Shape: []int64{1}, DType: dlpack.DataType{Code: dlpack.Float6E2M3FN, Bits: 6, Lanes: 2}}, dlpack.Current, dlpack.ErrUnknownDataType},
		{"float4 x2 as legacy", producer.Layout{Shape: []int64{1}, DType: dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 2}}, dlpack.Version{}, producer.ErrVersion},
		{"unknown flag", producer.Layout{Shape: []int64{1}, DType: dlpack.Float32, Flags: 1 << 9}, dlpack.Current, nil},
		{"float8 as legacy", producer.Layout{Shape: []int64{1}, DType: f8}, dlpack.Version{}, producer.ErrVersion},
		{"read-only legacy", producer.Layout{Shape: []int64{1}, DType: dlpack.Float32, Flags: dlpack.ReadOnly}, dlpack.Version{}, producer.ErrVersion},
		// 2**62 float32 elements in 4 bytes: no consumer can copy them, and a
		// copy=True export once sized its buffer modulo 2**64.
		{"broadcast beyond 2**63 bytes", producer.Layout{Shape: []int64{1 << 62}, Strides: []int64{0}, DType: dlpack.Float32}, dlpack.Current, dlpack.ErrOverflow},
	}
	for _, tt := range tests {
		m, err := b.Export(tt.l, tt.max)
		if err == nil {
			m.Delete()
			t.Errorf("%s: Export succeeded", tt.name)
			continue
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v is not %v", tt.name, err, tt.is)
		}
	}
	c, err := b.Retain()
	if err != nil {
		t.Fatalf("Retain of a live buffer: %v", err)
	}
	c.Release()
	if _, err := c.Export(producer.Layout{DType: dlpack.Float32}, dlpack.Current); !errors.Is(err, producer.ErrReleased) {
		t.Errorf("Export after Release: %v, want ErrReleased", err)
	}
}

// TestExportEmptyAtEnd exports an empty tensor at the end of pinned Go
// memory: its data address must stay inside the Go object, since a pointer
// just past it is invalid to Go (and fatal to checkptr under -race).
func TestExportEmptyAtEnd(t *testing.T) {
	s := make([]int32, 4)
	b, err := producer.Pin(s)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	m, err := b.Export(producer.Layout{Shape: []int64{0}, DType: dlpack.Int32, Offset: 16}, dlpack.Current)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Delete()
	dt, _, _ := tensorOf(m)
	if p := uintptr(dt.Data) - uintptr(unsafe.Pointer(&s[0])); p >= 16 {
		t.Errorf("data of an empty tensor at offset 16 is %d bytes into a 16-byte Go object", p)
	}
}

func TestExportCopy(t *testing.T) {
	before := ownertest.Live()
	src := []int16{0, 1, 2, 3, 4, 5, 6, 7}
	b, err := producer.Pin(src)
	if err != nil {
		t.Fatal(err)
	}
	float4 := dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 1}
	tests := []struct {
		name  string
		l     producer.Layout
		max   dlpack.Version
		want  []byte // the copy's bytes
		flags dlpack.Flags
	}{
		{"reversed, read-only, legacy", producer.Layout{Shape: []int64{3}, Strides: []int64{-2}, Offset: 10, DType: dlpack.Int16, Flags: dlpack.ReadOnly},
			dlpack.Version{}, []byte{5, 0, 3, 0, 1, 0}, 0},
		{"transposed", producer.Layout{Shape: []int64{2, 2}, Strides: []int64{1, 2}, DType: dlpack.Int16},
			dlpack.Current, []byte{0, 0, 2, 0, 1, 0, 3, 0}, dlpack.IsCopied},
		{"broadcast", producer.Layout{Shape: []int64{3}, Strides: []int64{0}, Offset: 2, DType: dlpack.Int16},
			dlpack.Current, []byte{1, 0, 1, 0, 1, 0}, dlpack.IsCopied},
		{"packed float4", producer.Layout{Shape: []int64{3}, Offset: 2, DType: float4},
			dlpack.Current, []byte{1, 0}, dlpack.IsCopied},
		{"padded float4", producer.Layout{Shape: []int64{2}, Strides: []int64{2}, Offset: 2, DType: float4, Flags: dlpack.IsSubbyteTypePadded},
			dlpack.Current, []byte{1, 2}, dlpack.IsCopied | dlpack.IsSubbyteTypePadded},
		{"empty", producer.Layout{Shape: []int64{0, 4}, Offset: 16, DType: dlpack.Int16},
			dlpack.Current, []byte{}, dlpack.IsCopied},
		// Two float4 a byte: a whole-byte element, copied as such.
		{"float4 x2 reversed", producer.Layout{Shape: []int64{3}, Strides: []int64{-2}, Offset: 4, DType: dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 2}},
			dlpack.Current, []byte{2, 1, 0}, dlpack.IsCopied},
	}
	for _, tt := range tests {
		m, err := b.ExportCopy(tt.l, tt.max)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		dt, flags, _ := tensorOf(m)
		got := unsafe.Slice((*byte)(dt.Data), len(tt.want))
		if string(got) != string(tt.want) || flags != tt.flags || m.Versioned != (tt.max.Major != 0) ||
			uintptr(dt.Data)%producer.Alignment != 0 || !slices.Equal(dt.ShapeSlice(), tt.l.Shape) ||
			!slices.Equal(dt.StridesSlice(), dlpack.ContiguousStrides(tt.l.Shape, nil)) {
			t.Errorf("%s: bytes %v flags %v versioned %v data %p shape %v strides %v; want bytes %v flags %v",
				tt.name, got, flags, m.Versioned, dt.Data, dt.ShapeSlice(), dt.StridesSlice(), tt.want, tt.flags)
		}
		m.Delete()
	}
	f8 := dlpack.DataType{Code: dlpack.Float8E5M2, Bits: 8, Lanes: 1}
	for _, tt := range []struct {
		name string
		l    producer.Layout
		max  dlpack.Version
		is   error
	}{
		{"outside the buffer", producer.Layout{Shape: []int64{9}, DType: dlpack.Int16}, dlpack.Current, nil},
		{"float8 as legacy", producer.Layout{Shape: []int64{2}, DType: f8}, dlpack.Version{}, producer.ErrVersion},
		{"broadcast beyond 2**63 bytes", producer.Layout{Shape: []int64{1 << 62}, Strides: []int64{0}, DType: dlpack.Int16}, dlpack.Current, dlpack.ErrOverflow},
	} {
		m, err := b.ExportCopy(tt.l, tt.max)
		if err == nil {
			m.Delete()
			t.Errorf("%s: ExportCopy succeeded", tt.name)
		} else if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("%s: error %v is not %v", tt.name, err, tt.is)
		}
	}
	b.Release()
	if _, err := b.ExportCopy(producer.Layout{DType: dlpack.Int16}, dlpack.Current); !errors.Is(err, producer.ErrReleased) {
		t.Errorf("ExportCopy after Release: %v, want ErrReleased", err)
	}
	if got := ownertest.Live(); got != before {
		t.Errorf("LiveOwners = %d after every deleter, want %d", got, before)
	}
}

// TestPinKeepsGoMemory exports a Go array, drops every Go reference to it and
// collects garbage: the memory must stay, unchanged and at the same address,
// until the managed tensor's deleter runs, and then become collectable.
func TestPinKeepsGoMemory(t *testing.T) {
	before := ownertest.Live()
	arr := new([1 << 14]float64)
	for i := range arr {
		arr[i] = float64(i)
	}
	var freed atomic.Bool
	runtime.AddCleanup(arr, func(f *atomic.Bool) { f.Store(true) }, &freed)
	b, err := producer.Pin(arr[:])
	if err != nil {
		t.Fatal(err)
	}
	m, err := b.Export(producer.Layout{Shape: []int64{1 << 14}, DType: dlpack.Float64}, dlpack.Current)
	if err != nil {
		t.Fatal(err)
	}
	b.Release()
	addr := uintptr(unsafe.Pointer(arr))
	arr = nil
	for range 5 {
		runtime.GC()
		garbage := make([]float64, 1<<14) // reuse freed memory if there is any
		for i := range garbage {
			garbage[i] = -1
		}
	}
	dt, _, _ := tensorOf(m)
	if uintptr(dt.Data) != addr {
		t.Fatalf("the exported data moved from %#x to %p", addr, dt.Data)
	}
	got := unsafe.Slice((*float64)(dt.Data), 1<<14)
	for i, v := range got {
		if v != float64(i) {
			t.Fatalf("element %d is %v after GC, want %d: the pinned memory was reused", i, v, i)
		}
	}
	if freed.Load() {
		t.Fatal("the garbage collector freed pinned memory while a managed tensor held it")
	}
	m.Delete()
	if got := ownertest.Live(); got != before {
		t.Errorf("LiveOwners = %d after the deleter, want %d", got, before)
	}
	for i := 0; i < 100 && !freed.Load(); i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if !freed.Load() {
		t.Error("the Go memory was never collected after the deleter unpinned it")
	}
}

// TestDeleterConcurrent runs the last deleters of pinned buffers on many
// goroutines at once: each unpins exactly once.
func TestDeleterConcurrent(t *testing.T) {
	before := ownertest.Live()
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 100 {
				b, err := producer.Pin(make([]int32, 16))
				if err != nil {
					t.Error(err)
					return
				}
				m, err := b.Export(producer.Layout{Shape: []int64{4, 4}, DType: dlpack.Int32}, dlpack.Version{})
				b.Release()
				if err != nil {
					t.Error(err)
					return
				}
				m.Delete()
			}
		}()
	}
	for range 8 {
		<-done
	}
	if got := ownertest.Live(); got != before {
		t.Errorf("LiveOwners = %d, want %d", got, before)
	}
}

func TestNegotiateNoAlloc(t *testing.T) {
	asked, need := dlpack.Version{Major: 1, Minor: 3}, dlpack.Version{Major: 1}
	if n := testing.AllocsPerRun(100, func() { _, _ = producer.Negotiate(asked, need, false) }); n != 0 {
		t.Errorf("Negotiate allocates %v times per call", n)
	}
}
