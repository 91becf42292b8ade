package producer_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/producertest"
)

// goContiguous is what gdl_contiguous must compute, from the Go functions.
func goContiguous(shape []int64, dt dlpack.DataType, padded bool) ([]int64, int64, int64, bool) {
	if len(shape) > dlpack.MaxNDim {
		return nil, 0, 0, false
	}
	strides := dlpack.ContiguousStrides(shape, nil)
	ext, err := dlpack.CheckLayout(shape, strides, dt, padded)
	if err != nil {
		return nil, 0, 0, false
	}
	n, ok := ext.DenseBytes(dt, padded)
	if !ok {
		return nil, 0, 0, false
	}
	return strides, ext.Elements, n, true
}

func checkContiguous(t *testing.T, shape []int64, dt dlpack.DataType, padded bool) {
	t.Helper()
	gs, ge, gn, gok := producertest.Contiguous(shape, dt, padded)
	ws, we, wn, wok := goContiguous(shape, dt, padded)
	if gok != wok || (gok && (!slices.Equal(gs, ws) || ge != we || gn != wn)) {
		t.Fatalf("shape %v of %v (padded %v): gdl_contiguous = %v %d %d %v, Go = %v %d %d %v",
			shape, dt, padded, gs, ge, gn, gok, ws, we, wn, wok)
	}
}

func TestContiguousMatchesGo(t *testing.T) {
	f4 := dlpack.DataType{Code: dlpack.Float4E2M1FN, Bits: 4, Lanes: 1}
	f6 := dlpack.DataType{Code: dlpack.Float6E2M3FN, Bits: 6, Lanes: 1}
	shapes := [][]int64{nil, {0}, {1}, {7}, {2, 3, 4}, {0, 1 << 40, 1 << 40}, {1 << 62, 2}, {1 << 61, 4},
		{1 << 62}, {3, -1}, {1 << 31, 1 << 31}, make([]int64, 65), {1 << 60, 1, 1, 1}, {9223372036854775807}}
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
