//go:build !purego

package vec

import "testing"

// TestLongStreams checks which kernels the AVX-512 path picks (longStream): AVX2's for two or three
// operands moving longStreams bytes or more, AVX-512's otherwise (the kernels themselves are
// TestArith's).
func TestLongStreams(t *testing.T) {
	for _, c := range []struct {
		op   arithOp
		n    int
		want bool
	}{
		{opAdd, (longStreams + 23) / 24, true}, // three slices of 8-byte elements
		{opAdd, longStreams/24 - 1, false},
		{opMulAdd, (longStreams + 31) / 32, true},
		{opMulAdd, longStreams/32 - 1, false},
		{opMulAddConst, longStreams, false}, // one operand
		{opDivConst, 1 << 30, false},
	} {
		if got := longStream(c.op, c.n, 8); got != c.want {
			t.Errorf("op %d of %d float64: long %v, want %v", c.op, c.n, got, c.want)
		}
	}
}
