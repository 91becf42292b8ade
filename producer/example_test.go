package producer_test

import (
	"errors"
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/testing/ownertest"
)

// Export a 2x3 float32 matrix of aligned C memory as a versioned managed
// tensor, and consume it as any DLPack consumer would.
func ExampleAlloc() {
	b, err := producer.Alloc(6 * 4)
	if err != nil {
		panic(err)
	}
	data := unsafe.Slice((*float32)(b.Pointer()), 6)
	for i := range data {
		data[i] = float32(i) / 2
	}
	m, err := b.Export(producer.Layout{Shape: []int64{2, 3}, DType: dlpack.Float32}, dlpack.Current)
	b.Release() // the managed tensor holds the memory from now on
	if err != nil {
		panic(err)
	}

	t, err := consumer.Import(m)
	if err != nil {
		panic(err)
	}
	defer t.Release() // calls the deleter, which frees the C memory
	s, err := consumer.Slice[float32](t)
	if err != nil {
		panic(err)
	}
	fmt.Println(t.Shape, t.DType, t.Version, s)
	// Output: [2 3] float32 1.3 [0 0.5 1 1.5 2 2.5]
}

// Export a Go slice without copying it, transposed and read-only. The
// slice stays pinned until the consumer's Release runs the deleter.
func ExamplePin() {
	live := ownertest.Live()
	s := []int64{1, 2, 3, 4, 5, 6} // 2x3, row-major
	b, err := producer.Pin(s)
	if err != nil {
		panic(err)
	}
	m, err := b.Export(producer.Layout{
		Shape:   []int64{3, 2},
		Strides: []int64{1, 3},
		DType:   dlpack.Int64,
		Flags:   dlpack.ReadOnly,
	}, dlpack.Version{Major: 1, Minor: 1})
	b.Release()
	if err != nil {
		panic(err)
	}

	t, err := consumer.Import(m)
	if err != nil {
		panic(err)
	}
	elems, err := consumer.Elements[int64](t)
	if err != nil {
		panic(err)
	}
	for p := range elems {
		fmt.Print(*p, " ")
	}
	fmt.Println(t.Data == unsafe.Pointer(&s[0]), t.ReadOnly(), t.Version)
	fmt.Println("pinned owners:", ownertest.Live()-live)
	t.Release() // the deleter drops the last reference: s is unpinned
	fmt.Println("pinned owners:", ownertest.Live()-live)
	// Output:
	// 1 4 2 5 3 6 true true 1.1
	// pinned owners: 1
	// pinned owners: 0
}

// The consumer's max_version decides what Export makes: a consumer that
// sent none gets a legacy DLManagedTensor, which cannot say whether it may
// be written (so it imports read-only, and a read-only tensor cannot be
// exported that way); any 1.x consumer gets a DLManagedTensorVersioned.
func ExampleBuffer_Export() {
	b, err := producer.Alloc(4 * 4)
	if err != nil {
		panic(err)
	}
	defer b.Release()
	l := producer.Layout{Shape: []int64{4}, DType: dlpack.Float32}
	for _, max := range []dlpack.Version{{}, {Major: 1, Minor: 1}, {Major: 2}} {
		m, err := b.Export(l, max)
		if err != nil {
			panic(err)
		}
		t, err := consumer.Import(m)
		if err != nil {
			panic(err)
		}
		fmt.Println(max, "->", t.Version, m.Versioned, t.ReadOnly())
		t.Release()
	}
	l.Flags = dlpack.ReadOnly
	_, err = b.Export(l, dlpack.Version{})
	fmt.Println(errors.Is(err, producer.ErrVersion))
	// Output:
	// 0.0 -> 0.0 false true
	// 1.1 -> 1.1 true false
	// 2.0 -> 1.3 true false
	// true
}

// A consumer that asks for copy=True gets ExportCopy's tensor: C-contiguous,
// in memory of its own, flagged IS_COPIED.
func ExampleBuffer_ExportCopy() {
	b, err := producer.Pin([]float32{1, 2, 3, 4, 5, 6})
	if err != nil {
		panic(err)
	}
	defer b.Release()
	m, err := b.ExportCopy(producer.Layout{Shape: []int64{3, 2}, Strides: []int64{1, 3}, DType: dlpack.Float32}, dlpack.Current)
	if err != nil {
		panic(err)
	}
	t, err := consumer.Import(m)
	if err != nil {
		panic(err)
	}
	defer t.Release()
	s, err := consumer.Slice[float32](t)
	fmt.Println(s, t.Strides, t.Flags, err)
	// Output: [1 4 2 5 3 6] [2 1] IS_COPIED <nil>
}

// A consumer that sent no max_version gets a legacy tensor; one that asked
// for 1.0 gets a float8 tensor at the 1.1 that float8 needs.
func ExampleNegotiate() {
	float8 := dlpack.MinVersion(dlpack.DataType{Code: dlpack.Float8E4M3FN, Bits: 8, Lanes: 1}, dlpack.Device{Type: dlpack.CPU})
	for _, asked := range []dlpack.Version{{}, {Major: 1, Minor: 0}, {Major: 2}} {
		plain, _ := producer.Negotiate(asked, dlpack.Version{}, false)
		f8, err := producer.Negotiate(asked, float8, false)
		fmt.Println(asked, "->", plain, f8, err != nil)
	}
	// Output:
	// 0.0 -> 0.0 0.0 true
	// 1.0 -> 1.0 1.1 false
	// 2.0 -> 1.3 1.3 false
}

func ExampleLease() {
	l, err := producer.AllocLease(8)
	if err != nil {
		panic(err)
	}
	returned := l // a copy, as a function's result is
	l.Release()   // spends every copy
	fmt.Println(returned.Pointer() == nil, returned.Len())
	returned.Release() // does nothing
	// Output: true 0
}
