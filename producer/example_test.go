package producer_test

import (
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
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

	t, err := consumer.Import(m.Pointer, m.Versioned)
	if err != nil {
		panic(err)
	}
	defer t.Release() // calls the deleter, which frees the C memory
	s, _ := consumer.Slice[float32](t)
	fmt.Println(t.Shape, t.DType, t.Version, s)
	// Output: [2 3] float32 1.3 [0 0.5 1 1.5 2 2.5]
}

// Export a Go slice without copying it, transposed and read-only. The
// slice stays pinned until the consumer's Release runs the deleter.
func ExamplePin() {
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

	t, err := consumer.Import(m.Pointer, m.Versioned)
	if err != nil {
		panic(err)
	}
	defer t.Release()
	elems, _ := consumer.Elements[int64](t)
	for p := range elems {
		fmt.Print(*p, " ")
	}
	fmt.Println(t.Data == unsafe.Pointer(&s[0]), t.ReadOnly(), t.Version)
	// Output: 1 4 2 5 3 6 true true 1.1
}

// A consumer that sent no max_version gets a legacy tensor.
func ExampleNegotiate() {
	fmt.Println(producer.Negotiate(dlpack.Version{}), producer.Negotiate(dlpack.Version{Major: 1, Minor: 1}),
		producer.Negotiate(dlpack.Version{Major: 2}))
	// Output: 0.0 1.1 1.3
}
