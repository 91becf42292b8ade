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
