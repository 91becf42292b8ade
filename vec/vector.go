//go:build (amd64 || arm64) && !purego

package vec

import "unsafe"

// The vector paths' reduction kernels (reductions_amd64.go, reductions_arm64.go) are
// whole-vector assembly kernels, each wrapped here with the pure-Go kernel for the elements before the
// first address aligned to a vector's bytes (align) and after the last whole
// vector (lanes is the elements of a vector, a power of 2): aligned loads
// and stores never straddle two cache lines, which costs 64-byte vectors a
// tenth of their speed on memory NumPy allocates (16 bytes off a line).

// split returns where the aligned whole vectors of n elements of size bytes
// at p start and end.
func split(p unsafe.Pointer, n, size, lanes, align int) (start, end int) {
	if uintptr(p)%uintptr(size) == 0 {
		start = min(n, int(-uintptr(p)&uintptr(align-1))/size)
	}
	return start, start + (n-start)&^(lanes-1)
}

// sumVec is a sum over x: kernel's over the aligned whole vectors, plain's
// over the rest.
func sumVec[T Float](kernel func(p *T, n int) float64, lanes, align int, plain func([]T) float64, x []T) float64 {
	i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
	s := plain(x[:i]) + plain(x[j:])
	if i < j {
		s += kernel(&x[i], j-i)
	}
	return s
}

// sumF64Vec is sumVec for float64, whose few elements outside the whole
// vectors are added to the kernel's sum with their rounding errors kept.
func sumF64Vec(kernel func(p *float64, n int) (hi, lo float64), lanes, align int, x []float64) (hi, lo float64) {
	i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), 8, lanes, align)
	if i == j {
		return sumF64Go(x)
	}
	hi, lo = kernel(&x[i], j-i)
	for _, part := range [2][]float64{x[:i], x[j:]} {
		for _, v := range part {
			var e float64
			hi, e = twoSum(hi, v)
			lo += e
		}
	}
	return hi, lo
}

func pairVec[T Float](kernel func(x, y *T, n int) float64, lanes, align int, plain func(x, y []T) float64, x, y []T) float64 {
	y = y[:len(x)]
	i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
	s := plain(x[:i], y[:i]) + plain(x[j:], y[j:])
	if i < j {
		s += kernel(&x[i], &y[i], j-i)
	}
	return s
}

// intSumOf is the sum of n integers of kind k at p: kernel's over the
// aligned whole vectors, or the pure-Go kernel's where kernel is nil.
func intSumOf(k kind, kernel func(p unsafe.Pointer, n int) uint64, lanes, align int, p unsafe.Pointer, n int) uint64 {
	switch {
	case kernel == nil:
		return sumIntGoOf(k, p, n)
	case k == i8:
		return intSumVec[int8](kernel, lanes, align, p, n)
	case k == i16:
		return intSumVec[int16](kernel, lanes, align, p, n)
	case k == i32:
		return intSumVec[int32](kernel, lanes, align, p, n)
	case k == u8:
		return intSumVec[uint8](kernel, lanes, align, p, n)
	case k == u16:
		return intSumVec[uint16](kernel, lanes, align, p, n)
	case k == u32:
		return intSumVec[uint32](kernel, lanes, align, p, n)
	}
	return intSumVec[uint64](kernel, lanes, align, p, n) // int64 and uint64 sum alike
}

func intSumVec[T Integer](kernel func(p unsafe.Pointer, n int) uint64, lanes, align int, p unsafe.Pointer, count int) uint64 {
	size := int(unsafe.Sizeof(T(0)))
	i, j := split(p, count, size, lanes, align)
	s := sumIntGo[T](p, i) + sumIntGo[T](unsafe.Add(p, j*size), count-j)
	if i < j {
		s += kernel(unsafe.Add(p, i*size), j-i)
	}
	return s
}

// lanesOf is the elements of kind k a vector kernel takes at once: bytes
// for 8-bit integers, other for the rest.
func lanesOf(k kind, bytes, other int) int {
	if k.log2size() == 0 {
		return bytes
	}
	return other
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// extremeOf is the min (isMin) or max of n numbers of kind k at p, and
// whether kernel saw a NaN: kernel's over the aligned whole vectors, or the
// pure-Go kernel's where kernel is nil.
func extremeOf(k kind, kernel func(p unsafe.Pointer, n int) (uint64, bool), vectorBytes int, isMin bool, p unsafe.Pointer, n int) (uint64, bool) {
	switch {
	case kernel == nil:
		return extremeGoOf(k, isMin, p, n)
	case k == i8:
		return extremeVec[int8](kernel, vectorBytes, isMin, p, n)
	case k == i16:
		return extremeVec[int16](kernel, vectorBytes, isMin, p, n)
	case k == i32:
		return extremeVec[int32](kernel, vectorBytes, isMin, p, n)
	case k == i64:
		return extremeVec[int64](kernel, vectorBytes, isMin, p, n)
	case k == u8:
		return extremeVec[uint8](kernel, vectorBytes, isMin, p, n)
	case k == u16:
		return extremeVec[uint16](kernel, vectorBytes, isMin, p, n)
	case k == u32:
		return extremeVec[uint32](kernel, vectorBytes, isMin, p, n)
	case k == u64:
		return extremeVec[uint64](kernel, vectorBytes, isMin, p, n)
	case k == f32:
		return extremeVec[float32](kernel, vectorBytes, isMin, p, n)
	}
	return extremeVec[float64](kernel, vectorBytes, isMin, p, n)
}

func extremeVec[T Number](kernel func(p unsafe.Pointer, n int) (uint64, bool), vectorBytes int, isMin bool, p unsafe.Pointer, count int) (uint64, bool) {
	size := int(unsafe.Sizeof(T(0)))
	i, j := split(p, count, size, vectorBytes/size, vectorBytes)
	if i == j {
		return extremeGo[T](isMin, p, count)
	}
	bits, nan := kernel(unsafe.Add(p, i*size), j-i)
	m := *(*T)(unsafe.Pointer(&bits))
	for _, part := range [2][2]int{{0, i}, {j, count}} {
		if part[0] < part[1] {
			b, _ := extremeGo[T](isMin, unsafe.Add(p, part[0]*size), part[1]-part[0])
			if isMin {
				m = min(m, *(*T)(unsafe.Pointer(&b)))
			} else {
				m = max(m, *(*T)(unsafe.Pointer(&b)))
			}
		}
	}
	return bitsIn(m), nan
}
