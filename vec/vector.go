//go:build (amd64 || arm64) && !purego

package vec

import "unsafe"

// The tables of the vector paths are made of whole-vector assembly kernels,
// each wrapped here with the pure-Go kernel for the elements before the
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

func sumWith[T Float](kernel func(p *T, n int) float64, lanes, align int, plain func([]T) float64) func([]T) float64 {
	return func(x []T) float64 {
		i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
		s := plain(x[:i]) + plain(x[j:])
		if i < j {
			s += kernel(&x[i], j-i)
		}
		return s
	}
}

// sumF64With is sumWith for float64, whose few elements outside the whole
// vectors are added to the kernel's sum with their rounding errors kept.
func sumF64With(kernel func(p *float64, n int) (hi, lo float64), lanes, align int) func([]float64) (hi, lo float64) {
	return func(x []float64) (hi, lo float64) {
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
}

func pairWith[T Float](kernel func(x, y *T, n int) float64, lanes, align int, plain func(x, y []T) float64) func(x, y []T) float64 {
	return func(x, y []T) float64 {
		y = y[:len(x)]
		i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
		s := plain(x[:i], y[:i]) + plain(x[j:], y[j:])
		if i < j {
			s += kernel(&x[i], &y[i], j-i)
		}
		return s
	}
}

func intSumWith[T Integer](kernel func(p unsafe.Pointer, n int) uint64, lanes, align int) func(unsafe.Pointer, int) uint64 {
	return func(p unsafe.Pointer, count int) uint64 {
		size := int(unsafe.Sizeof(T(0)))
		i, j := split(p, count, size, lanes, align)
		s := sumIntGo[T](p, i) + sumIntGo[T](unsafe.Add(p, j*size), count-j)
		if i < j {
			s += kernel(unsafe.Add(p, i*size), j-i)
		}
		return s
	}
}

func scaleWith[T Float](kernel func(p *T, n int, a T), lanes, align int) func([]T, T) {
	return func(x []T, a T) {
		i, j := split(unsafe.Pointer(unsafe.SliceData(x)), len(x), int(unsafe.Sizeof(T(0))), lanes, align)
		if i < j {
			kernel(&x[i], j-i, a)
		}
		scaleGo(x[:i], a)
		scaleGo(x[j:], a)
	}
}

func scaleIntWith[T Unsigned](kernel func(p unsafe.Pointer, n int, a uint64), lanes, align int) func(unsafe.Pointer, int, uint64) {
	return func(p unsafe.Pointer, count int, a uint64) {
		size := int(unsafe.Sizeof(T(0)))
		i, j := split(p, count, size, lanes, align)
		if i < j {
			kernel(unsafe.Add(p, i*size), j-i, a)
		}
		scaleIntGo[T](p, i, a)
		scaleIntGo[T](unsafe.Add(p, j*size), count-j, a)
	}
}

func axpyWith[T Float](kernel func(y, x *T, n int, a T), lanes, align int) func([]T, T, []T) {
	return func(y []T, a T, x []T) {
		x = x[:len(y)]
		i, j := split(unsafe.Pointer(unsafe.SliceData(y)), len(y), int(unsafe.Sizeof(T(0))), lanes, align)
		if i < j {
			kernel(&y[i], &x[i], j-i, a)
		}
		axpyGo(y[:i], a, x[:i])
		axpyGo(y[j:], a, x[j:])
	}
}

// extremeWith makes a min (isMin) or max kernel of T; kernel is nil where the path has none.
func extremeWith[T Number](kernel func(p unsafe.Pointer, n int) (uint64, bool), vectorBytes int, isMin bool) func(unsafe.Pointer, int) (uint64, bool) {
	plain := maxGo[T]
	if isMin {
		plain = minGo[T]
	}
	if kernel == nil {
		return plain
	}
	size := int(unsafe.Sizeof(T(0)))
	return func(p unsafe.Pointer, count int) (uint64, bool) {
		i, j := split(p, count, size, vectorBytes/size, vectorBytes)
		if i == j {
			return plain(p, count)
		}
		bits, nan := kernel(unsafe.Add(p, i*size), j-i)
		m := *(*T)(unsafe.Pointer(&bits))
		for _, part := range [2][2]int{{0, i}, {j, count}} {
			if part[0] < part[1] {
				b, _ := plain(unsafe.Add(p, part[0]*size), part[1]-part[0])
				if isMin {
					m = min(m, *(*T)(unsafe.Pointer(&b)))
				} else {
					m = max(m, *(*T)(unsafe.Pointer(&b)))
				}
			}
		}
		return bitsIn(m), nan
	}
}

// extremesWith makes the min or max kernels of every kind from one path's assembly, nil where it has none.
func extremesWith(k [kinds]func(unsafe.Pointer, int) (uint64, bool), vectorBytes int, isMin bool) [kinds]func(unsafe.Pointer, int) (uint64, bool) {
	return [kinds]func(unsafe.Pointer, int) (uint64, bool){
		extremeWith[int8](k[i8], vectorBytes, isMin), extremeWith[int16](k[i16], vectorBytes, isMin),
		extremeWith[int32](k[i32], vectorBytes, isMin), extremeWith[int64](k[i64], vectorBytes, isMin),
		extremeWith[uint8](k[u8], vectorBytes, isMin), extremeWith[uint16](k[u16], vectorBytes, isMin),
		extremeWith[uint32](k[u32], vectorBytes, isMin), extremeWith[uint64](k[u64], vectorBytes, isMin),
		extremeWith[float32](k[f32], vectorBytes, isMin), extremeWith[float64](k[f64], vectorBytes, isMin),
	}
}

// A tileKernel writes the squared distances of rows consecutive rows of a
// (lda elements apart) to m rows of b (m a multiple of cols, ldb apart)
// into dst, whose rows are ldd apart: a's rows 0 apart repeat one row, and
// dst's rows 0 apart write its distances onto themselves.
type tileKernel func(dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int)

// sqDistsWith drives a tile kernel over blocks of rows by cols. Columns go
// in chunks whose rows of b stay in the core's cache while every row of a
// passes; a kernel call takes a few microseconds at most. Where the rows or
// columns are not a whole number of blocks, the last block overlaps the one
// before it (the pairs it computes again come out the same, to the bit).
// Fewer rows than a block go one at a time, the row repeated (0 apart) onto
// itself in dst; fewer columns than a block take the pure-Go kernel.
func sqDistsWith(kernel tileKernel, rows, cols int) func(dst, a, b []float32, n, m, k int) {
	return func(dst, a, b []float32, n, m, k int) {
		if m < cols {
			sqDistsRect(dst, a, b, m, k, 0, n, 0, m)
			return
		}
		chunk := min(maxChunk, max(cols, (256<<10)/(4*k)/cols*cols))
		nv, mv := n-n%rows, m-m%cols
		for j0, width := 0, 0; j0 < m; j0 += width {
			width = min(chunk, mv-j0)
			if j0 >= mv { // the last columns: a whole block ending at m
				j0, width = m-cols, cols
			}
			if n < rows {
				for i := range n {
					tile(kernel, &dst[i*m+j0], 0, &a[i*k], 0, &b[j0*k], k, width, k)
				}
				continue
			}
			for i0 := 0; i0 < n; i0 += rows {
				if i0 >= nv { // the last rows: a whole block ending at n
					i0 = n - rows
				}
				tile(kernel, &dst[i0*m+j0], m, &a[i0*k], k, &b[j0*k], k, width, k)
			}
		}
	}
}

// tile calls kernel from a function that the runtime can preempt the
// goroutine at, as it enters: the assembly cannot be, and the loops of
// sqDistsWith call nothing else, so a garbage collection would wait for
// the whole SqDists, milliseconds, rather than for one kernel call.
//
//go:noinline
func tile(kernel tileKernel, dst *float32, ldd int, a *float32, lda int, b *float32, ldb int, m, k int) {
	kernel(dst, ldd, a, lda, b, ldb, m, k)
}
