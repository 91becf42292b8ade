package dlpack

import "encoding/binary"

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

// visit calls f with the offset, in elements, of each of the n elements
// of a layout, the k-th in row-major order, or column-major when fortran.
func visit(shape, strides []int64, n int64, fortran bool, f func(k, off int64)) {
	idx := make([]int64, len(shape))
	for k := range n {
		var off int64
		for i, x := range idx {
			off += x * strides[i]
		}
		f(k, off)
		for j := range idx {
			i := len(idx) - 1 - j
			if fortran {
				i = j
			}
			if idx[i]++; idx[i] < shape[i] {
				break
			}
			idx[i] = 0
		}
	}
}
