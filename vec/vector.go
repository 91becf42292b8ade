//go:build (amd64 || arm64) && !purego

package vec

import "unsafe"

// The tables of the vector paths are made of whole-vector assembly kernels,
// each wrapped here with the pure-Go kernel for the elements after the last
// whole vector (lanes is the elements of a vector, a power of 2).

func wholeVectors(n, lanes int) int { return n &^ (lanes - 1) }

func sumWith[T Float](kernel func(p *T, n int) float64, lanes int, tail func([]T) float64) func([]T) float64 {
	return func(x []T) float64 {
		n := wholeVectors(len(x), lanes)
		s := tail(x[n:])
		if n > 0 {
			s += kernel(unsafe.SliceData(x), n)
		}
		return s
	}
}

// sumF64With is sumWith for float64, whose few elements after the whole
// vectors are added to the kernel's sum with their rounding errors kept.
func sumF64With(kernel func(p *float64, n int) (hi, lo float64), lanes int) func([]float64) (hi, lo float64) {
	return func(x []float64) (hi, lo float64) {
		n := wholeVectors(len(x), lanes)
		if n == 0 {
			return sumF64Go(x)
		}
		hi, lo = kernel(unsafe.SliceData(x), n)
		for _, v := range x[n:] {
			var e float64
			hi, e = twoSum(hi, v)
			lo += e
		}
		return hi, lo
	}
}

func pairWith[T Float](kernel func(x, y *T, n int) float64, lanes int, tail func(x, y []T) float64) func(x, y []T) float64 {
	return func(x, y []T) float64 {
		n := wholeVectors(len(x), lanes)
		y = y[:len(x)]
		s := tail(x[n:], y[n:])
		if n > 0 {
			s += kernel(unsafe.SliceData(x), unsafe.SliceData(y), n)
		}
		return s
	}
}

func intSumWith[T Integer](kernel func(p unsafe.Pointer, n int) uint64, lanes int) func(unsafe.Pointer, int) uint64 {
	return func(p unsafe.Pointer, count int) uint64 {
		n := wholeVectors(count, lanes)
		s := sumIntGo[T](unsafe.Add(p, n*int(unsafe.Sizeof(T(0)))), count-n)
		if n > 0 {
			s += kernel(p, n)
		}
		return s
	}
}

func scaleWith[T Float](kernel func(p *T, n int, a T), lanes int) func([]T, T) {
	return func(x []T, a T) {
		n := wholeVectors(len(x), lanes)
		if n > 0 {
			kernel(unsafe.SliceData(x), n, a)
		}
		scaleGo(x[n:], a)
	}
}

func scaleIntWith[T Unsigned](kernel func(p unsafe.Pointer, n int, a uint64), lanes int) func(unsafe.Pointer, int, uint64) {
	return func(p unsafe.Pointer, count int, a uint64) {
		n := wholeVectors(count, lanes)
		if n > 0 {
			kernel(p, n, a)
		}
		scaleIntGo[T](unsafe.Add(p, n*int(unsafe.Sizeof(T(0)))), count-n, a)
	}
}

func axpyWith[T Float](kernel func(y, x *T, n int, a T), lanes int) func([]T, T, []T) {
	return func(y []T, a T, x []T) {
		n := wholeVectors(len(y), lanes)
		if n > 0 {
			kernel(unsafe.SliceData(y), unsafe.SliceData(x), n, a)
		}
		axpyGo(y[n:], a, x[n:len(y)])
	}
}

// extremeWith makes a min (isMin) or max kernel of T; kernel is nil where the path has none.
func extremeWith[T Number](kernel func(p unsafe.Pointer, n int) (uint64, bool), lanes int, isMin bool) func(unsafe.Pointer, int) (uint64, bool) {
	plain := maxGo[T]
	if isMin {
		plain = minGo[T]
	}
	if kernel == nil {
		return plain
	}
	return func(p unsafe.Pointer, count int) (uint64, bool) {
		n := wholeVectors(count, lanes)
		if n == 0 {
			return plain(p, count)
		}
		bits, nan := kernel(p, n)
		if n < count {
			tail, _ := plain(unsafe.Add(p, n*int(unsafe.Sizeof(T(0)))), count-n)
			m, t := *(*T)(unsafe.Pointer(&bits)), *(*T)(unsafe.Pointer(&tail))
			if isMin {
				m = min(m, t)
			} else {
				m = max(m, t)
			}
			bits = bitsIn(m)
		}
		return bits, nan
	}
}

// extremesWith makes the min or max kernels of every kind from one path's assembly, nil where it has none.
func extremesWith(k [kinds]func(unsafe.Pointer, int) (uint64, bool), vectorBytes int, isMin bool) [kinds]func(unsafe.Pointer, int) (uint64, bool) {
	return [kinds]func(unsafe.Pointer, int) (uint64, bool){
		extremeWith[int8](k[i8], vectorBytes, isMin), extremeWith[int16](k[i16], vectorBytes/2, isMin),
		extremeWith[int32](k[i32], vectorBytes/4, isMin), extremeWith[int64](k[i64], vectorBytes/8, isMin),
		extremeWith[uint8](k[u8], vectorBytes, isMin), extremeWith[uint16](k[u16], vectorBytes/2, isMin),
		extremeWith[uint32](k[u32], vectorBytes/4, isMin), extremeWith[uint64](k[u64], vectorBytes/8, isMin),
		extremeWith[float32](k[f32], vectorBytes/4, isMin), extremeWith[float64](k[f64], vectorBytes/8, isMin),
	}
}

// sqDistsWith drives a tile kernel, which writes the distances of rows
// consecutive rows of a to m rows of b (m a multiple of cols) into dst, whose
// rows are ldd apart. Columns go in chunks whose rows of b stay in the
// core's cache while every row of a passes; the rows and columns left over
// take the pure-Go kernel.
func sqDistsWith(kernel func(dst *float32, ldd int, a, b *float32, m, k int), rows, cols int) func(dst, a, b []float32, n, m, k int) {
	return func(dst, a, b []float32, n, m, k int) {
		nv, mv := n-n%rows, m-m%cols
		chunk := max(cols, (256<<10)/(4*k)/cols*cols)
		for j0 := 0; j0 < mv; j0 += chunk {
			width := min(chunk, mv-j0)
			for i0 := 0; i0 < nv; i0 += rows {
				kernel(&dst[i0*m+j0], m, &a[i0*k], &b[j0*k], width, k)
			}
		}
		sqDistsRect(dst, a, b, m, k, 0, nv, mv, m)
		sqDistsRect(dst, a, b, m, k, nv, n, 0, m)
	}
}
