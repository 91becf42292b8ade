package arange_test

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/godlpack/godlpack/arange"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/scalar"
)

// NumPy's np.arange(0.5, 2, 0.25), written into a float32 buffer.
func Example() {
	start := scalar.Scalar{Kind: scalar.Float, Real: 0.5}
	stop := scalar.Scalar{Kind: scalar.Int, Int: 2}
	step := scalar.Scalar{Kind: scalar.Float, Real: 0.25}
	n, err := arange.Len(start, stop, step)
	if err != nil {
		panic(err)
	}
	dt := dlpack.Float32
	buf := make([]byte, n*int64(dt.ItemSize()))
	if err := arange.Write(dt, buf, start, step); err != nil {
		panic(err)
	}
	for i := int64(0); i < n; i++ {
		fmt.Print(math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:])), " ")
	}
	fmt.Println("dtype when none is asked:", arange.DType(start, stop, step))
	// Output: 0.5 0.75 1 1.25 1.5 1.75 dtype when none is asked: float64
}
