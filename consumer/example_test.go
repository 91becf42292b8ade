package consumer_test

import (
	"fmt"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/producer"
)

// managedMatrix stands for a managed tensor from any producer (NumPy,
// PyTorch, a capsule taken with package capsule): a 2x3 float64 matrix.
func managedMatrix() dlpack.Managed {
	b, err := producer.Pin([]float64{1, 2, 3, 4, 5, 6})
	if err != nil {
		panic(err)
	}
	defer b.Release()
	m, err := b.Export(producer.Layout{Shape: []int64{2, 3}, DType: dlpack.Float64}, dlpack.Current)
	if err != nil {
		panic(err)
	}
	return m
}

// Import a managed tensor, read it as a typed slice, write it in place, and
// release it, which calls the producer's deleter once.
func ExampleImport() {
	m := managedMatrix()
	t, err := consumer.Import(m)
	if err != nil {
		panic(err) // the deleter has already been called
	}
	defer t.Release()
	fmt.Println(t.Shape, t.Strides, t.DType, t.Device, t.ReadOnly())

	if err := t.CheckWritable(); err != nil {
		panic(err)
	}
	x, err := consumer.Slice[float64](t)
	if err != nil {
		panic(err)
	}
	for i := range x {
		x[i] *= 10
	}
	fmt.Println(x)
	_, err = consumer.Slice[float32](t)
	fmt.Println(err)
	// Output:
	// [2 3] [3 1] float64 cpu:0 false
	// [10 20 30 40 50 60]
	// consumer: data type mismatch: the tensor holds float64, not float32
}

// Walk a tensor of any strides: here the transpose of a matrix.
func ExampleElements() {
	b, err := producer.Pin([]int32{1, 2, 3, 4, 5, 6})
	if err != nil {
		panic(err)
	}
	m, err := b.Export(producer.Layout{Shape: []int64{3, 2}, Strides: []int64{1, 3}, DType: dlpack.Int32}, dlpack.Current)
	b.Release()
	if err != nil {
		panic(err)
	}
	t, err := consumer.Import(m)
	if err != nil {
		panic(err)
	}
	defer t.Release()

	elems, err := consumer.Elements[int32](t)
	if err != nil {
		panic(err)
	}
	var sum int32
	for p := range elems {
		fmt.Print(*p, " ")
		sum += *p
	}
	fmt.Println("sum", sum)
	// Output: 1 4 2 5 3 6 sum 21
}

// Copy any tensor into a contiguous buffer of your own (Go memory here; C
// memory works through unsafe.Slice).
func ExampleTensor_CopyTo() {
	m := managedMatrix()
	t, err := consumer.Import(m)
	if err != nil {
		panic(err)
	}
	defer t.Release()
	buf := make([]byte, t.NBytes())
	fmt.Println(t.CopyTo(buf), len(buf))
	// Output: <nil> 48
}
