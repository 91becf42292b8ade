package scalar_test

import (
	"errors"
	"fmt"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/scalar"
)

// Python's 300 stored as an int16, and refused by an int8, as NumPy's full
// would.
func ExampleEncode() {
	v := scalar.Scalar{Kind: scalar.Int, Int: 300}
	b, err := scalar.Encode(dlpack.Int16, v)
	fmt.Printf("%v %x %v\n", v, b, err)
	_, err = scalar.Encode(dlpack.Int8, v)
	fmt.Println(errors.Is(err, scalar.ErrRange))
	// Output:
	// 300 2c01 <nil>
	// true
}
