package minifloat_test

import (
	"fmt"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/minifloat"
)

func ExampleEncodeFloat16() {
	h := minifloat.EncodeFloat16(0.1)
	fmt.Printf("%#04x %v\n", h, minifloat.DecodeFloat16(h))
	// Output: 0x2e66 0.0999755859375
}

// float8_e4m3fn has no infinity: values beyond 448 round to its NaN code.
func ExampleEncode() {
	for _, x := range []float64{1, 448, 1e6} {
		b, _ := minifloat.Encode(dlpack.Float8E4M3FN, x)
		v, _ := minifloat.Decode(dlpack.Float8E4M3FN, b)
		fmt.Printf("%v -> %#02x -> %v\n", x, b, v)
	}
	// Output:
	// 1 -> 0x38 -> 1
	// 448 -> 0x7e -> 448
	// 1e+06 -> 0x7f -> NaN
}
