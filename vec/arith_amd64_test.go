//go:build !purego

package vec

import (
	"testing"
	"unsafe"
)

// TestLongStreams checks which kernels longWith picks: AVX2's for two or three operands moving
// longStreams bytes or more, AVX-512's otherwise (the kernels themselves are TestArith's).
func TestLongStreams(t *testing.T) {
	var took string
	pick := longWith(func(arithOp, []float64, []float64, []float64, []float64, float64, float64) { took = "short" },
		func(arithOp, []float64, []float64, []float64, []float64, float64, float64) { took = "long" })
	for _, c := range []struct {
		op   arithOp
		n    int
		want string
	}{
		{opAdd, (longStreams + 23) / 24, "long"}, // three slices of 8-byte elements
		{opAdd, longStreams/24 - 1, "short"},
		{opMulAdd, (longStreams + 31) / 32, "long"},
		{opMulAdd, longStreams/32 - 1, "short"},
		{opMulAddConst, longStreams, "short"}, // one operand
		{opDivConst, 1 << 30, "short"},
	} {
		took = ""
		var v float64
		pick(c.op, unsafe.Slice(&v, c.n), nil, nil, nil, 0, 0) // the fakes read the length alone
		if took != c.want {
			t.Errorf("op %d of %d float64: %s kernels, want %s", c.op, c.n, took, c.want)
		}
	}
}
