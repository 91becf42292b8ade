//go:build (amd64 || arm64) && !purego

package vec

import "unsafe"

// arithVec runs op with a path's assembly kernels, one an arithOp, each
// wrapped as vector.go's are: step elements a kernel call, elementwiseGo
// for the elements outside dst's aligned whole vectors.
func arithVec[T Float](kernels *[arithOps]func(dst, x, y, z *T, n int, a, b T), lanes, align int, op arithOp, dst, x, y, z []T, a, b T) {
	for len(dst) > 0 {
		n := min(len(dst), step)
		i, j := split(unsafe.Pointer(unsafe.SliceData(dst)), n, int(unsafe.Sizeof(T(0))), lanes, align)
		if i < j {
			kernels[op](&dst[i], &x[i], &y[i], &z[i], j-i, a, b)
		}
		elementwiseGo(op, dst[:i], x[:i], y[:i], z[:i], a, b)
		elementwiseGo(op, dst[j:n], x[j:n], y[j:n], z[j:n], a, b)
		dst, x, y, z = dst[n:], x[n:], y[n:], z[n:]
	}
}

// sqDistConstVec is sumF64Vec for SqDistConst: the kernel's sum (a
// compensated one for float64) and that of the few elements outside its
// whole vectors are added with their rounding errors kept.
func sqDistConstVec[T Float](kernel func(p *T, n int, c float64) (hi, lo float64), lanes, align int, x []T, c float64) dd {
	i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
	s := sqDistConstGo(x[:i], c).plus(sqDistConstGo(x[j:], c))
	if i < j {
		hi, lo := kernel(&x[i], j-i, c)
		s = s.plus(dd{hi, lo})
	}
	return s
}

func scaleVec[T Float](kernel func(p *T, n int, a T), lanes, align int, x []T, a T) {
	i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
	if i < j {
		kernel(&x[i], j-i, a)
	}
	scaleGo(x[:i], a)
	scaleGo(x[j:], a)
}

// scaleIntOf multiplies n integers of log2size bytes at p by a: kernel over
// the aligned whole vectors of lanes8>>log2size elements, or the pure-Go
// kernel where kernel is nil.
func scaleIntOf(log2size int, kernel func(p unsafe.Pointer, n int, a uint64), lanes8, align int, p unsafe.Pointer, n int, a uint64) {
	lanes := lanes8 >> log2size
	switch {
	case kernel == nil:
		scaleIntGoOf(log2size, p, n, a)
	case log2size == 0:
		scaleIntVec[uint8](kernel, lanes, align, p, n, a)
	case log2size == 1:
		scaleIntVec[uint16](kernel, lanes, align, p, n, a)
	case log2size == 2:
		scaleIntVec[uint32](kernel, lanes, align, p, n, a)
	default:
		scaleIntVec[uint64](kernel, lanes, align, p, n, a)
	}
}

func scaleIntVec[T Unsigned](kernel func(p unsafe.Pointer, n int, a uint64), lanes, align int, p unsafe.Pointer, count int, a uint64) {
	size := int(unsafe.Sizeof(T(0)))
	i, j := split(p, count, size, lanes, align)
	if i < j {
		kernel(unsafe.Add(p, i*size), j-i, a)
	}
	scaleIntGo[T](p, i, a)
	scaleIntGo[T](unsafe.Add(p, j*size), count-j, a)
}

func axpyVec[T Float](kernel func(y, x *T, n int, a T), lanes, align int, y []T, a T, x []T) {
	x = x[:len(y)]
	i, j := split(unsafe.Pointer(unsafe.SliceData(y)), len(y), int(unsafe.Sizeof(T(0))), lanes, align)
	if i < j {
		kernel(&y[i], &x[i], j-i, a)
	}
	axpyGo(y[:i], a, x[:i])
	axpyGo(y[j:], a, x[j:])
}
