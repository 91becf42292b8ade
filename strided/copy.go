// Package strided copies the elements of tensors of any strides, at
// memory bandwidth where the layouts allow: [Copy].
package strided

import (
	"unsafe"

	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/internal/preempt"
)

// Copy copies the elements of a strided source into a strided destination
// of the same shape. Strides are counted in elements of itemSize bytes;
// nil strides mean C-contiguous. Both layouts are assumed valid (see
// [dlpack.CheckLayout]) and the two regions must not overlap.
//
// Copy moves the longest run of bytes that is contiguous in both layouts
// at a time: dimensions of size 1 are dropped, adjacent dimensions whose
// strides chain in both layouts are merged, and if the innermost remaining
// dimension is contiguous in both, each run is one memmove. A layout
// contiguous in both therefore costs a single memmove. A 0-d tensor copies
// one element; a tensor with no elements, or itemSize <= 0, copies nothing.
//
// Copy panics if the strides' lengths differ from the shape's, or if more
// than [dlpack.MaxNDim] dimensions are larger than 1 (impossible for a valid layout).
func Copy(dst unsafe.Pointer, dstStrides []int64, src unsafe.Pointer, srcStrides []int64, shape []int64, itemSize int) {
	if (dstStrides != nil && len(dstStrides) != len(shape)) || (srcStrides != nil && len(srcStrides) != len(shape)) {
		panic("strided: Copy: strides and shape differ in length")
	}
	if itemSize <= 0 {
		return
	}
	for _, d := range shape {
		if d <= 0 {
			return
		}
	}

	// Gather the dimensions larger than 1, outermost first, with strides
	// in bytes. Their count is at most MaxNDim-1 for any layout whose
	// element count fits in an int64, since each is at least 2.
	var (
		dims           [dlpack.MaxNDim]int64
		sstr, dstr     [dlpack.MaxNDim]int64
		nd             int
		sContig, dCont = int64(1), int64(1) // contiguous strides for nil
	)
	size := int64(itemSize)
	for i := len(shape) - 1; i >= 0; i-- {
		d := shape[i]
		ss, ds := sContig, dCont
		if srcStrides != nil {
			ss = srcStrides[i]
		}
		if dstStrides != nil {
			ds = dstStrides[i]
		}
		sContig *= d
		dCont *= d
		if d == 1 {
			continue
		}
		if nd == dlpack.MaxNDim {
			panic("strided: Copy: too many dimensions")
		}
		dims[nd], sstr[nd], dstr[nd] = d, ss*size, ds*size
		nd++
	}
	// dims is now innermost first. Merge dimension k into the one inside
	// it when stepping k once equals running off the end of the inner one
	// in both layouts.
	m := 0
	for k := 1; k < nd; k++ {
		if sstr[k] == sstr[m]*dims[m] && dstr[k] == dstr[m]*dims[m] {
			dims[m] *= dims[k]
			continue
		}
		m++
		dims[m], sstr[m], dstr[m] = dims[k], sstr[k], dstr[k]
	}
	if nd > 0 {
		nd = m + 1
	}

	if nd == 0 {
		copyBytes(dst, src, size)
		return
	}
	// The innermost dimension is either one run per outer index or a
	// strided loop over single elements.
	n, ss, ds := dims[0], sstr[0], dstr[0]
	run := ss == size && ds == size
	if run && nd == 1 {
		copyBytes(dst, src, n*size)
		return
	}
	// When one side walks the innermost dimension with a longer stride
	// than the next one out (a transposing copy), the kernel covers both
	// dimensions in tiles, so that it touches few cache lines and pages of
	// each side at a time.
	kern := 1
	if !run && nd >= 2 && (absU(sstr[0]) > absU(sstr[1]) || absU(dstr[0]) > absU(dstr[1])) {
		kern = 2
	}
	var idx [dlpack.MaxNDim]int64
	var soff, doff int64
	for {
		s, d := unsafe.Add(src, soff), unsafe.Add(dst, doff)
		switch {
		case run:
			copyBytes(d, s, n*size)
		case kern == 2:
			copyTiled(d, s, dims[0], dstr[0], sstr[0], dims[1], dstr[1], sstr[1], itemSize)
		default:
			copyStrided(d, ds, s, ss, n, itemSize)
		}
		// Advance the odometer over the dimensions outside the kernel.
		k := kern
		for ; k < nd; k++ {
			idx[k]++
			soff += sstr[k]
			doff += dstr[k]
			if idx[k] < dims[k] {
				break
			}
			idx[k] = 0
			soff -= sstr[k] * dims[k]
			doff -= dstr[k] * dims[k]
		}
		if k >= nd {
			return
		}
	}
}

// tile is the edge of the square blocks copyTiled works through. It is
// small because with power-of-two strides every row of a block maps to the
// same L1 cache set, which has only a few ways; 16 measured best.
const tile = 16

// copyTiled copies an n0-by-n1 block of elements whose dimension 0 is
// the inner loop, in tile-by-tile blocks. Strides are in bytes.
func copyTiled(dst, src unsafe.Pointer, n0, ds0, ss0, n1, ds1, ss1 int64, size int) {
	for j0 := int64(0); j0 < n1; j0 += tile {
		j1 := min(j0+tile, n1)
		for i0 := int64(0); i0 < n0; i0 += tile {
			m := min(tile, n0-i0)
			for j := j0; j < j1; j++ {
				copyStrided(unsafe.Add(dst, j*ds1+i0*ds0), ds0, unsafe.Add(src, j*ss1+i0*ss0), ss0, m, size)
			}
		}
	}
}

func copyBytes(dst, src unsafe.Pointer, n int64) {
	preempt.Copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

// copyStrided copies n elements of size bytes each with the given byte
// strides. Common sizes move through byte-array types, which the compiler
// turns into single unaligned-safe loads and stores instead of a memmove
// call per element.
func copyStrided(dst unsafe.Pointer, ds int64, src unsafe.Pointer, ss int64, n int64, size int) {
	var so, do int64
	switch size {
	case 1:
		for range n {
			*(*[1]byte)(unsafe.Add(dst, do)) = *(*[1]byte)(unsafe.Add(src, so))
			so += ss
			do += ds
		}
	case 2:
		for range n {
			*(*[2]byte)(unsafe.Add(dst, do)) = *(*[2]byte)(unsafe.Add(src, so))
			so += ss
			do += ds
		}
	case 4:
		for range n {
			*(*[4]byte)(unsafe.Add(dst, do)) = *(*[4]byte)(unsafe.Add(src, so))
			so += ss
			do += ds
		}
	case 8:
		for range n {
			*(*[8]byte)(unsafe.Add(dst, do)) = *(*[8]byte)(unsafe.Add(src, so))
			so += ss
			do += ds
		}
	case 16:
		for range n {
			*(*[16]byte)(unsafe.Add(dst, do)) = *(*[16]byte)(unsafe.Add(src, so))
			so += ss
			do += ds
		}
	default:
		for range n {
			copyBytes(unsafe.Add(dst, do), unsafe.Add(src, so), int64(size))
			so += ss
			do += ds
		}
	}
}

// absU returns the magnitude of a; uint64 holds that of math.MinInt64 too.
func absU(a int64) uint64 { return uint64(max(a, -a)) }
