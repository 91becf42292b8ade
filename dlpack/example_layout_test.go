//go:build cgo

package dlpack_test

import (
	"fmt"

	"github.com/godlpack/godlpack/dlpack"
)

func ExampleCheckLayout() {
	// A 3x4 float32 matrix viewed transposed and with its rows reversed.
	shape := []int64{4, 3}
	strides := []int64{1, -4}
	e, err := dlpack.CheckLayout(shape, strides, dlpack.Float32, false)
	fmt.Printf("%+v %d %v\n", e, e.Bytes(), err)

	_, err = dlpack.CheckLayout([]int64{1 << 61}, []int64{1}, dlpack.Float64, false)
	fmt.Println(err)
	// Output:
	// {Elements:12 Low:-32 High:16 DenseBytes:48 CContiguous:false FContiguous:false} 48 <nil>
	// dlpack: size overflows int64: byte extent of shape [2305843009213693952] with strides [1] and 8-byte items
}
