package strided_test

import (
	"fmt"
	"unsafe"

	"github.com/godlpack/godlpack/strided"
)

// A 2×3 int32 matrix copied from column-major (Fortran) order into a
// C-contiguous one.
func ExampleCopy() {
	src := []int32{1, 4, 2, 5, 3, 6} // columns (1 4), (2 5), (3 6)
	dst := make([]int32, 6)
	strided.Copy(unsafe.Pointer(&dst[0]), nil, unsafe.Pointer(&src[0]), []int64{1, 2}, []int64{2, 3}, 4)
	fmt.Println(dst)
	// Output: [1 2 3 4 5 6]
}
