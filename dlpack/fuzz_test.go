package dlpack

import (
	"encoding/binary"
	"math"
	"testing"
)

// fuzzLayout decodes a shape and strides from data. Each dimension takes
// one byte for its size and one for its stride; a byte with the high bit
// set instead takes the next eight bytes as a raw int64, so that the
// fuzzer reaches both small walkable layouts and overflowing ones.
func fuzzLayout(ndim uint8, data []byte) (shape, strides []int64) {
	next := func(small func(b byte) int64) int64 {
		if len(data) == 0 {
			return 1
		}
		b := data[0]
		data = data[1:]
		if b&0x80 != 0 && len(data) >= 8 {
			v := int64(binary.LittleEndian.Uint64(data))
			data = data[8:]
			return v
		}
		return small(b)
	}
	n := int(ndim) % (MaxNDim + 3) // a little past the limit
	shape = make([]int64, n)
	strides = make([]int64, n)
	for i := range n {
		shape[i] = next(func(b byte) int64 { return int64(b & 7) })
		strides[i] = next(func(b byte) int64 { return int64(int8(b<<1)) >> 1 }) // -64..63
	}
	return shape, strides
}

func FuzzCheckLayout(f *testing.F) {
	f.Add(uint8(0), uint8(11), false, []byte{})
	f.Add(uint8(2), uint8(10), false, []byte{3, 4, 4, 1})
	f.Add(uint8(2), uint8(2), true, []byte{3, 1, 4, 3})
	f.Add(uint8(3), uint8(1), false, []byte{2, 0x7f, 1, 5, 3, 0x7e})
	f.Add(uint8(2), uint8(25), false, []byte{2, 2, 4, 1})
	f.Add(uint8(1), uint8(25), true, []byte{5, 0x7e})
	f.Add(uint8(2), uint8(0), false, []byte{0x80, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0x80, 0, 0, 0, 0, 1, 0, 0, 0, 1})
	f.Add(uint8(65), uint8(5), false, []byte{})
	f.Fuzz(func(t *testing.T, ndim, dtIndex uint8, padded bool, data []byte) {
		shape, strides := fuzzLayout(ndim, data)
		// The table, then vector types, then types Check refuses.
		types := append(DataTypes(), DataType{Float4E2M1FN, 4, 2}, DataType{Float, 32, 2}, DataType{Float6E2M3FN, 6, 4},
			DataType{Float6E2M3FN, 6, 2}, DataType{Float, 24, 2})
		dt := types[int(dtIndex)%len(types)]
		e, err := CheckLayout(shape, strides, dt, padded)
		if err == nil && dt.Check() != nil {
			t.Fatalf("CheckLayout accepted %v, which Check refuses", dt)
		}
		isCContiguous(shape, strides)
		ContiguousStrides(shape, nil)
		if err != nil {
			if _, ok := err.(*LayoutError); !ok {
				t.Fatalf("error %v is a %T, not a *LayoutError", err, err)
			}
			if e != (Extent{}) {
				t.Fatalf("extent %+v returned with error %v", e, err)
			}
			return
		}
		if e.Elements == 0 {
			if e.Low != 0 || e.High != 0 || !e.CContiguous || !e.FContiguous {
				t.Fatalf("empty layout has extent %+v", e)
			}
			return
		}
		packed := dt.SubByte() && !padded
		size := int64(dt.StorageSize(!packed))
		if !(e.Low <= 0 && 0 <= e.High) {
			t.Fatalf("extent %+v does not contain element 0", e)
		}
		if !packed && e.Bytes() < size {
			t.Fatalf("Bytes() = %d for %d-byte items", e.Bytes(), size)
		}
		if packed {
			// ceil(Elements*Bits/8) without overflow: split Elements.
			q, r := e.Elements/8, e.Elements%8
			want := q*int64(dt.Bits) + (r*int64(dt.Bits)+7)/8
			if !e.CContiguous || e.Low != 0 || e.High != want {
				t.Fatalf("packed %v: extent %+v", dt, e)
			}
		}
		if isCContiguous(shape, strides) != e.CContiguous {
			t.Fatalf("isCContiguous disagrees with %+v", e)
		}
		if e.Elements > 4096 || packed {
			return
		}

		// Walk every index in row-major and column-major order. Row-major
		// C-contiguity means the k-th element visited is at offset k, and
		// likewise for F; the extent must be exactly the hull of the
		// elements.
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		cOrder, fOrder := true, true
		idx := make([]int64, len(shape))
		for k := range e.Elements {
			var off int64
			for i, x := range idx {
				off += x * strides[i]
			}
			if off != k {
				cOrder = false
			}
			lo = min(lo, off*size)
			hi = max(hi, off*size+size)
			for i := len(idx) - 1; i >= 0; i-- {
				if idx[i]++; idx[i] < shape[i] {
					break
				}
				idx[i] = 0
			}
		}
		for k := range e.Elements {
			var off int64
			for i, x := range idx {
				off += x * strides[i]
			}
			if off != k {
				fOrder = false
			}
			for i := range idx {
				if idx[i]++; idx[i] < shape[i] {
					break
				}
				idx[i] = 0
			}
		}
		if lo != e.Low || hi != e.High {
			t.Fatalf("shape %v strides %v: walk spans [%d, %d), extent %+v", shape, strides, lo, hi, e)
		}
		if cOrder != e.CContiguous || fOrder != e.FContiguous {
			t.Fatalf("shape %v strides %v: walk finds C %v F %v, extent %+v", shape, strides, cOrder, fOrder, e)
		}
	})
}
