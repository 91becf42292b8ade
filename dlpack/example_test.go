package dlpack_test

import (
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/strided"
)

func ExampleParseDataType() {
	dt, err := dlpack.ParseDataType("bfloat16")
	fmt.Println(dt, dt.Code, dt.Bits, dt.Lanes, dt.ItemSize(), err)

	_, err = dlpack.ParseDataType("float128")
	fmt.Println(err)
	// Output:
	// bfloat16 4 16 1 2 <nil>
	// dlpack: unknown data type "float128"
}

func ExampleCopy() {
	src := []int32{1, 2, 3, 4, 5, 6} // 2x3, row-major
	dst := make([]int32, 6)          // 3x2, row-major: the transpose
	shape := []int64{3, 2}
	strided.Copy(unsafe.Pointer(&dst[0]), []int64{2, 1}, unsafe.Pointer(&src[0]), []int64{1, 3}, shape, 4)
	fmt.Println(dst)
	// Output:
	// [1 4 2 5 3 6]
}

func ExampleFlags_String() {
	fmt.Println(dlpack.ReadOnly | dlpack.IsCopied)
	// Output: READ_ONLY|IS_COPIED
}
