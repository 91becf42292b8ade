package consumer_test

import (
	"errors"
	"slices"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/testing/ownertest"
)

// export makes a managed tensor over the int32 values 0..n-1 in pinned Go
// memory with the given layout and version.
func export(t *testing.T, n int, l producer.Layout, max dlpack.Version) (dlpack.Managed, []int32) {
	t.Helper()
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(i)
	}
	b, err := producer.Pin(s)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if l.DType == (dlpack.DataType{}) {
		l.DType = dlpack.Int32
	}
	m, err := b.Export(l, max)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

func importT(t *testing.T, m dlpack.Managed) *consumer.Tensor {
	t.Helper()
	x, err := consumer.Import(m)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestReleaseOnce(t *testing.T) {
	before := ownertest.Live()
	m, _ := export(t, 6, producer.Layout{Shape: []int64{2, 3}}, dlpack.Current)
	x := importT(t, m)
	if got := ownertest.Live(); got != before+1 {
		t.Fatalf("LiveOwners = %d while imported, want %d", got, before+1)
	}
	done := make(chan struct{})
	for range 4 {
		go func() { x.Release(); done <- struct{}{} }()
	}
	for range 4 {
		<-done
	}
	x.Release()
	if got := ownertest.Live(); got != before {
		t.Errorf("LiveOwners = %d after Release, want %d (deleter not called exactly once)", got, before)
	}
	if !x.Released() || !slices.Equal(x.Shape, []int64{2, 3}) || !slices.Equal(x.Strides, []int64{3, 1}) {
		t.Errorf("after Release: released %v shape %v strides %v", x.Released(), x.Shape, x.Strides)
	}
	if _, err := consumer.Slice[int32](x); !errors.Is(err, consumer.ErrReleased) {
		t.Errorf("Slice after Release: %v, want ErrReleased", err)
	}
	if _, err := consumer.Elements[int32](x); !errors.Is(err, consumer.ErrReleased) {
		t.Errorf("Elements after Release: %v, want ErrReleased", err)
	}
}

// TestOneElementAPI: a Tensor, its View, and a type that embeds a View (as
// package pymodule's arguments do) are all read by the same functions, to
// the same elements; an iterator made before a Tensor's release yields
// nothing after it.
func TestOneElementAPI(t *testing.T) {
	m, s := export(t, 6, producer.Layout{Shape: []int64{2, 3}}, dlpack.Current)
	x := importT(t, m)
	type argument struct {
		consumer.View
		_ [8]byte
	}
	a := argument{View: x.View}
	for _, v := range []consumer.Viewer{x, &x.View, &a} {
		got, err := consumer.Slice[int32](v)
		if err != nil || len(got) != 6 || &got[0] != &s[0] {
			t.Errorf("Slice(%T) = %v, %v; want the 6 elements at %p", v, got, err, &s[0])
		}
		it, err := consumer.Elements[int32](v)
		n := 0
		for p := range it {
			if p != &s[n] {
				t.Errorf("Elements(%T): element %d at %p, want %p", v, n, p, &s[n])
			}
			n++
		}
		if err != nil || n != 6 {
			t.Errorf("Elements(%T) yielded %d elements, %v; want 6", v, n, err)
		}
	}
	it, _ := consumer.Elements[int32](x)
	x.Release()
	for range it {
		t.Fatal("an iterator of a released Tensor yielded an element")
	}
}

func TestImportInvalidCallsDeleter(t *testing.T) {
	before := ownertest.Live()
	m, _ := export(t, 4, producer.Layout{Shape: []int64{4}}, dlpack.Current)
	(*dlpack.ManagedTensorVersioned)(m.Pointer).DLTensor.Shape = nil // an invalid tensor
	if _, err := consumer.Import(dlpack.Managed{Pointer: m.Pointer, Versioned: true}); err == nil {
		t.Fatal("Import accepted a tensor with NULL shape")
	}
	if got := ownertest.Live(); got != before {
		t.Errorf("LiveOwners = %d after a refused import, want %d", got, before)
	}
}

func TestViews(t *testing.T) {
	tests := []struct {
		name     string
		l        producer.Layout
		max      dlpack.Version
		slice    []int32 // nil: Slice must fail with sliceErr
		sliceErr error
		writeErr error
		elems    []int32
	}{
		{"contiguous", producer.Layout{Shape: []int64{2, 3}}, dlpack.Current, []int32{0, 1, 2, 3, 4, 5}, nil, nil, []int32{0, 1, 2, 3, 4, 5}},
		{"transposed", producer.Layout{Shape: []int64{3, 2}, Strides: []int64{1, 3}}, dlpack.Current, nil, consumer.ErrLayout, nil, []int32{0, 3, 1, 4, 2, 5}},
		{"reversed rows", producer.Layout{Shape: []int64{2, 3}, Strides: []int64{-3, 1}, Offset: 12}, dlpack.Current, nil, consumer.ErrLayout, nil, []int32{3, 4, 5, 0, 1, 2}},
		{"broadcast", producer.Layout{Shape: []int64{2, 2}, Strides: []int64{0, 1}}, dlpack.Current, nil, consumer.ErrLayout, nil, []int32{0, 1, 0, 1}},
		{"scalar", producer.Layout{Offset: 8}, dlpack.Current, []int32{2}, nil, nil, []int32{2}},
		{"empty", producer.Layout{Shape: []int64{0, 3}}, dlpack.Current, []int32{}, nil, nil, nil},
		{"read-only", producer.Layout{Shape: []int64{6}, Flags: dlpack.ReadOnly}, dlpack.Current, []int32{0, 1, 2, 3, 4, 5}, nil, consumer.ErrReadOnly, []int32{0, 1, 2, 3, 4, 5}},
		{"legacy", producer.Layout{Shape: []int64{6}}, dlpack.Version{}, []int32{0, 1, 2, 3, 4, 5}, nil, consumer.ErrReadOnly, []int32{0, 1, 2, 3, 4, 5}},
	}
	for _, tt := range tests {
		m, _ := export(t, 6, tt.l, tt.max)
		x := importT(t, m)
		s, err := consumer.Slice[int32](x)
		switch {
		case tt.slice == nil && !errors.Is(err, tt.sliceErr):
			t.Errorf("%s: Slice error %v, want %v", tt.name, err, tt.sliceErr)
		case tt.slice != nil && (err != nil || !slices.Equal(s, tt.slice)):
			t.Errorf("%s: Slice = %v, %v, want %v", tt.name, s, err, tt.slice)
		}
		if err := x.CheckWritable(); !errors.Is(err, tt.writeErr) {
			t.Errorf("%s: CheckWritable = %v, want %v", tt.name, err, tt.writeErr)
		}
		if _, err := consumer.Slice[float32](x); !errors.Is(err, consumer.ErrDType) {
			t.Errorf("%s: Slice[float32] of int32 data: %v, want ErrDType", tt.name, err)
		}
		it, err := consumer.Elements[int32](x)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []int32
		for p := range it {
			got = append(got, *p)
		}
		if !slices.Equal(got, tt.elems) {
			t.Errorf("%s: Elements = %v, want %v", tt.name, got, tt.elems)
		}
		buf := make([]byte, x.NBytes())
		if err := x.CopyTo(buf); err != nil {
			t.Errorf("%s: CopyTo: %v", tt.name, err)
		}
		var copied []int32
		if len(buf) > 0 {
			copied = unsafe.Slice((*int32)(unsafe.Pointer(&buf[0])), len(buf)/4)
		}
		if !slices.Equal(copied, tt.elems) {
			t.Errorf("%s: CopyTo = %v, want %v", tt.name, copied, tt.elems)
		}
		x.Release()
	}
}

func TestCopyFrom(t *testing.T) {
	// Both tensors start as 0..5; a source in memory of its own is then set
	// to 100..105, so that any write into the destination shows.
	original := []int32{0, 1, 2, 3, 4, 5}
	tests := []struct {
		name     string
		dst, src producer.Layout
		same     bool    // src views the destination's memory
		want     []int32 // the destination's memory afterwards
		err      error
	}{
		{"transpose", producer.Layout{Shape: []int64{2, 3}}, producer.Layout{Shape: []int64{2, 3}, Strides: []int64{1, 2}}, false, []int32{100, 102, 104, 101, 103, 105}, nil},
		{"overlapping shift", producer.Layout{Shape: []int64{5}, Offset: 4}, producer.Layout{Shape: []int64{5}}, true, []int32{0, 0, 1, 2, 3, 4}, nil},
		{"overlapping reverse", producer.Layout{Shape: []int64{6}}, producer.Layout{Shape: []int64{6}, Strides: []int64{-1}, Offset: 20}, true, []int32{5, 4, 3, 2, 1, 0}, nil},
		{"shape mismatch", producer.Layout{Shape: []int64{6}}, producer.Layout{Shape: []int64{2, 3}}, false, original, consumer.ErrLayout},
		{"dtype mismatch", producer.Layout{Shape: []int64{6}}, producer.Layout{Shape: []int64{6}, DType: dlpack.Float32}, false, original, consumer.ErrDType},
		{"read-only", producer.Layout{Shape: []int64{6}, Flags: dlpack.ReadOnly}, producer.Layout{Shape: []int64{6}}, false, original, consumer.ErrReadOnly},
	}
	for _, tt := range tests {
		md, mem := export(t, 6, tt.dst, dlpack.Current)
		var ms dlpack.Managed
		if tt.same {
			b, err := producer.Pin(mem)
			if err != nil {
				t.Fatalf("%s: Pin: %v", tt.name, err)
			}
			l := tt.src
			l.DType = dlpack.Int32
			ms, err = b.Export(l, dlpack.Current)
			b.Release()
			if err != nil {
				t.Fatalf("%s: Export: %v", tt.name, err)
			}
		} else {
			var srcMem []int32
			ms, srcMem = export(t, 6, tt.src, dlpack.Current)
			for i := range srcMem {
				srcMem[i] += 100
			}
		}
		dst, src := importT(t, md), importT(t, ms)
		err := dst.CopyFrom(src)
		if !errors.Is(err, tt.err) {
			t.Errorf("%s: CopyFrom = %v, want %v", tt.name, err, tt.err)
		}
		if !slices.Equal(mem, tt.want) {
			t.Errorf("%s: dst memory %v, want %v", tt.name, mem, tt.want)
		}
		dst.Release()
		src.Release()
	}
}

func TestRaw(t *testing.T) {
	m, _ := export(t, 6, producer.Layout{Shape: []int64{3, 2}, Strides: []int64{1, 3}, DType: dlpack.Float32}, dlpack.Current)
	x := importT(t, m)
	defer x.Release()
	it, err := consumer.Raw[uint32](x)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint32
	for p := range it {
		got = append(got, *p)
	}
	if !slices.Equal(got, []uint32{0, 3, 1, 4, 2, 5}) {
		t.Errorf("Raw = %v", got)
	}
	if _, err := consumer.Raw[uint16](x); !errors.Is(err, consumer.ErrDType) {
		t.Errorf("Raw[uint16] of float32: %v, want ErrDType", err)
	}
}

// TestViewChecks: a View's checks and Slice of a View say what the data is,
// as a Tensor's do, but for release, which a View cannot know.
func TestViewChecks(t *testing.T) {
	cuda := dlpack.Device{Type: dlpack.CUDA}
	tests := []struct {
		name              string
		l                 producer.Layout
		max               dlpack.Version
		device            *dlpack.Device // set on the view after import, as a producer on that device would
		readErr, writeErr error
		sliceErr          error
	}{
		{"writable", producer.Layout{Shape: []int64{2, 2}}, dlpack.Current, nil, nil, nil, nil},
		{"read-only", producer.Layout{Shape: []int64{4}, Flags: dlpack.ReadOnly}, dlpack.Current, nil, nil, consumer.ErrReadOnly, nil},
		{"legacy", producer.Layout{Shape: []int64{4}}, dlpack.Version{}, nil, nil, consumer.ErrReadOnly, nil},
		{"transposed", producer.Layout{Shape: []int64{2, 2}, Strides: []int64{1, 2}}, dlpack.Current, nil, nil, nil, consumer.ErrLayout},
		{"on a device", producer.Layout{Shape: []int64{4}}, dlpack.Current, &cuda, consumer.ErrDevice, consumer.ErrDevice, consumer.ErrDevice},
	}
	for _, tt := range tests {
		m, s := export(t, 4, tt.l, tt.max)
		x := importT(t, m)
		v := x.View
		if tt.device != nil {
			v.Device = *tt.device
		}
		if err := v.CheckReadable(); !errors.Is(err, tt.readErr) || (err == nil) != (tt.readErr == nil) {
			t.Errorf("%s: CheckReadable = %v, want %v", tt.name, err, tt.readErr)
		}
		if err := v.CheckWritable(); !errors.Is(err, tt.writeErr) || (err == nil) != (tt.writeErr == nil) {
			t.Errorf("%s: CheckWritable = %v, want %v", tt.name, err, tt.writeErr)
		}
		got, err := consumer.Slice[int32](&v)
		if !errors.Is(err, tt.sliceErr) || (err == nil) != (tt.sliceErr == nil) {
			t.Errorf("%s: Slice = %v, want %v", tt.name, err, tt.sliceErr)
		} else if err == nil && (len(got) != 4 || &got[0] != &s[0]) {
			t.Errorf("%s: Slice = %v at %p, want the 4 elements at %p", tt.name, got, got, &s[0])
		}
		if _, err := consumer.Slice[float32](&v); !errors.Is(err, consumer.ErrDType) {
			t.Errorf("%s: Slice[float32] of int32 = %v, want ErrDType", tt.name, err)
		}
		x.Release()
		// The Tensor's own checks also say whether it was released.
		if err := x.CheckWritable(); !errors.Is(err, consumer.ErrReleased) {
			t.Errorf("%s: CheckWritable after Release = %v, want ErrReleased", tt.name, err)
		}
	}
}
