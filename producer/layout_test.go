package producer_test

import (
	"encoding/binary"
	"math"
	"math/big"
	"slices"
	"testing"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/testing/producertest"
)

// specContiguous is what gdl_contiguous must compute, by the DLPack rules
// in exact arithmetic: the row-major strides (a dimension of 0 counting as
// 1), the product of the shape, and the bytes of the elements (one byte each
// for padded sub-byte types, ceil(elements*bits*lanes/8) packed); refused
// for more than 64 dimensions, an unknown data type, a negative dimension,
// or a non-empty tensor whose count or bytes exceed an int64. strides is nil
// where they do not fit in an int64 (an empty tensor's, which are
// unspecified).
func specContiguous(shape []int64, dt dlpack.DataType, padded bool) (strides []int64, elements, nbytes int64, ok bool) {
	if len(shape) > dlpack.MaxNDim || dt.Check() != nil || slices.ContainsFunc(shape, func(d int64) bool { return d < 0 }) {
		return nil, 0, 0, false
	}
	maxInt64 := big.NewInt(math.MaxInt64)
	n, s := big.NewInt(1), big.NewInt(1)
	strides = make([]int64, len(shape))
	for i := len(shape) - 1; i >= 0; i-- {
		if s.Cmp(maxInt64) > 0 {
			strides = nil
		} else if strides != nil {
			strides[i] = s.Int64()
		}
		d := big.NewInt(shape[i])
		n.Mul(n, d)
		s.Mul(s, d.SetInt64(max(shape[i], 1)))
	}
	b := new(big.Int)
	if dt.SubByte() && !padded {
		b.Mul(n, big.NewInt(int64(dt.Bits)*int64(dt.Lanes)))
		b.Add(b, big.NewInt(7)).Rsh(b, 3)
	} else {
		b.Mul(n, big.NewInt(int64(dt.StorageSize(true))))
	}
	if n.Cmp(maxInt64) > 0 || b.Cmp(maxInt64) > 0 {
		return nil, 0, 0, false
	}
	return strides, n.Int64(), b.Int64(), true
}

func checkContiguous(t *testing.T, shape []int64, dt dlpack.DataType, padded bool) {
	t.Helper()
	gs, ge, gn, gok := producertest.Contiguous(shape, dt, padded)
	ws, we, wn, wok := specContiguous(shape, dt, padded)
	if gok != wok || gok && (ws != nil && !slices.Equal(gs, ws) || ge != we || gn != wn) {
		t.Fatalf("shape %v of %v (padded %v): gdl_contiguous = %v %d %d %v, want %v %d %d %v",
			shape, dt, padded, gs, ge, gn, gok, ws, we, wn, wok)
	}
}

func TestContiguous(t *testing.T) {
	f4 := dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 1}
	f6 := dlpack.DataType{Code: dlpack.Float6E2M3FN, Bits: 6, Lanes: 1}
	shapes := [][]int64{nil, {0}, {1}, {7}, {2, 3, 4}, {0, 1 << 40, 1 << 40}, {1 << 62, 2}, {1 << 61, 4},
		{1 << 62}, {3, -1}, {1 << 31, 1 << 31}, make([]int64, 65), {1 << 60, 1, 1, 1}, {9223372036854775807},
		{0, -1}, {1 << 32, 1 << 32, 0}, {3, 0, 5}}
	for _, shape := range shapes {
		for _, dt := range append(dlpack.DataTypes(), f4, f6, dlpack.DataType{Code: 2, Bits: 32, Lanes: 2}, dlpack.DataType{Code: 99, Bits: 8, Lanes: 1}) {
			for _, padded := range []bool{false, true} {
				checkContiguous(t, shape, dt, padded)
			}
		}
	}
}

func FuzzContiguous(f *testing.F) {
	f.Add(uint8(2), uint8(32), false, []byte{2, 3})
	f.Add(uint8(17), uint8(4), false, []byte{0x80, 0, 0, 0, 0, 0, 0, 0, 0x40})
	f.Fuzz(func(t *testing.T, code, bits uint8, padded bool, dims []byte) {
		var shape []int64
		for len(dims) > 0 && len(shape) <= dlpack.MaxNDim {
			if dims[0]&0x80 != 0 && len(dims) >= 9 {
				shape = append(shape, int64(binary.LittleEndian.Uint64(dims[1:])))
				dims = dims[9:]
				continue
			}
			shape = append(shape, int64(dims[0]&15))
			dims = dims[1:]
		}
		checkContiguous(t, shape, dlpack.DataType{Code: dlpack.Code(code), Bits: bits, Lanes: 1}, padded)
	})
}
