package vec

import "unsafe"

// kernels is one path's table of kernels. Each takes any length; a vector
// path's entries run its assembly over whole vectors and the pure-Go kernel
// over the few elements left (AVX-512's minima and maxima, and its
// element-wise arithmetic, take those under a mask).
type kernels struct {
	path      string
	sumF32    func(x []float32) float64
	sumF64    func(x []float64) (hi, lo float64) // a compensated sum, hi + lo
	dotF32    func(x, y []float32) float64
	dotF64    func(x, y []float64) float64
	sqDistF32 func(x, y []float32) float64
	sqDistF64 func(x, y []float64) float64
	sumInt    [kinds]func(p unsafe.Pointer, n int) uint64 // the integer kinds
	scaleF32  func(x []float32, a float32)
	scaleF64  func(x []float64, a float64)
	scaleInt  [4]func(p unsafe.Pointer, n int, a uint64) // by log2 of the size
	axpyF32   func(y []float32, a float32, x []float32)
	axpyF64   func(y []float64, a float64, x []float64)
	// min and max return the extreme's bits (a T in the first bytes of the uint64) and whether they saw a
	// NaN, for a kernel that does not make its result NaN itself.
	min, max   [kinds]func(p unsafe.Pointer, n int) (bits uint64, nan bool)
	sqDistsF32 func(dst, a, b []float32, n, m, k int)
	arith      *arithKernels // the element-wise arithmetic (arith.go)
}

// pureGo is the path of plain Go, which every build has.
var pureGo = kernels{
	path:      "go",
	sumF32:    sumF32Go,
	sumF64:    sumF64Go,
	dotF32:    dotGo[float32],
	dotF64:    dotGo[float64],
	sqDistF32: sqDistGo[float32],
	sqDistF64: sqDistGo[float64],
	sumInt: [kinds]func(unsafe.Pointer, int) uint64{
		i8: sumIntGo[int8], i16: sumIntGo[int16], i32: sumIntGo[int32], i64: sumIntGo[int64],
		u8: sumIntGo[uint8], u16: sumIntGo[uint16], u32: sumIntGo[uint32], u64: sumIntGo[uint64],
	},
	scaleF32: scaleGo[float32],
	scaleF64: scaleGo[float64],
	scaleInt: [4]func(unsafe.Pointer, int, uint64){scaleIntGo[uint8], scaleIntGo[uint16], scaleIntGo[uint32], scaleIntGo[uint64]},
	axpyF32:  axpyGo[float32],
	axpyF64:  axpyGo[float64],
	min: [kinds]func(unsafe.Pointer, int) (uint64, bool){
		minGo[int8], minGo[int16], minGo[int32], minGo[int64], minGo[uint8], minGo[uint16], minGo[uint32],
		minGo[uint64], minGo[float32], minGo[float64],
	},
	max: [kinds]func(unsafe.Pointer, int) (uint64, bool){
		maxGo[int8], maxGo[int16], maxGo[int32], maxGo[int64], maxGo[uint8], maxGo[uint16], maxGo[uint32],
		maxGo[uint64], maxGo[float32], maxGo[float64],
	},
	sqDistsF32: sqDistsGo[float32],
	arith:      &arithGo,
}

// active is the path in use: the best that the CPU runs, chosen at start-up.
var active = &pureGo

// paths lists every path this build and CPU can run, the pure-Go one last:
// the tests run each.
var paths = []*kernels{&pureGo}

// Path names the kernels in use: "avx512" or "avx2" on amd64, "neon" on
// arm64, "go" for the pure-Go path (the build tag purego, or a CPU without
// the instructions).
func Path() string { return active.path }

// use makes the paths that the CPU runs available, best first, and the first
// of them active.
func use(vector ...*kernels) {
	paths = append(vector, &pureGo)
	active = paths[0]
}

func sumF32Go(x []float32) float64 {
	var s0, s1, s2, s3 float64
	for len(x) >= 4 {
		s0 += float64(x[0])
		s1 += float64(x[1])
		s2 += float64(x[2])
		s3 += float64(x[3])
		x = x[4:]
	}
	for _, v := range x {
		s0 += float64(v)
	}
	return (s0 + s1) + (s2 + s3)
}

// sumF64Go is a compensated sum in four lanes, as the vector paths' are:
// each lane keeps its sum and the exact rounding errors of its additions
// (TwoSum), and the lanes are added the same way.
func sumF64Go(x []float64) (hi, lo float64) {
	var s, c [4]float64
	for len(x) >= 4 {
		for i := range 4 {
			var e float64
			s[i], e = twoSum(s[i], x[i])
			c[i] += e
		}
		x = x[4:]
	}
	lo = (c[0] + c[1]) + (c[2] + c[3])
	hi = s[0]
	for _, v := range s[1:] {
		var e float64
		hi, e = twoSum(hi, v)
		lo += e
	}
	for _, v := range x {
		var e float64
		hi, e = twoSum(hi, v)
		lo += e
	}
	return hi, lo
}

// twoSum returns a+b rounded and its rounding error, exactly (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bb := s - a
	return s, (a - (s - bb)) + (b - bb)
}

func dotGo[T Float](x, y []T) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	for len(x) >= 4 {
		s0 += float64(x[0]) * float64(y[0])
		s1 += float64(x[1]) * float64(y[1])
		s2 += float64(x[2]) * float64(y[2])
		s3 += float64(x[3]) * float64(y[3])
		x, y = x[4:], y[4:]
	}
	for i := range x {
		s0 += float64(x[i]) * float64(y[i])
	}
	return (s0 + s1) + (s2 + s3)
}

func sqDistGo[T Float](x, y []T) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	for len(x) >= 4 {
		d0, d1 := float64(x[0])-float64(y[0]), float64(x[1])-float64(y[1])
		d2, d3 := float64(x[2])-float64(y[2]), float64(x[3])-float64(y[3])
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
		x, y = x[4:], y[4:]
	}
	for i := range x {
		d := float64(x[i]) - float64(y[i])
		s0 += d * d
	}
	return (s0 + s1) + (s2 + s3)
}

// sumIntGo sums n integers of type T at p into a wrapping 64-bit sum: a
// signed T is sign-extended, an unsigned one zero-extended.
func sumIntGo[T Integer](p unsafe.Pointer, n int) uint64 {
	x := unsafe.Slice((*T)(p), n)
	var s0, s1, s2, s3 uint64
	for len(x) >= 4 {
		s0 += uint64(int64(x[0]))
		s1 += uint64(int64(x[1]))
		s2 += uint64(int64(x[2]))
		s3 += uint64(int64(x[3]))
		x = x[4:]
	}
	for _, v := range x {
		s0 += uint64(int64(v))
	}
	return s0 + s1 + s2 + s3
}

func scaleGo[T Number](x []T, a T) {
	for i := range x {
		x[i] *= a
	}
}

// scaleIntGo multiplies n integers of T's size at p by the low bits of a.
func scaleIntGo[T Unsigned](p unsafe.Pointer, n int, a uint64) {
	scaleGo(unsafe.Slice((*T)(p), n), T(a))
}

func axpyGo[T Float](y []T, a T, x []T) {
	x = x[:len(y)]
	for i := range y {
		y[i] += T(a * x[i]) // the conversion rounds the product: no fused multiply-add
	}
}

func minGo[T Number](p unsafe.Pointer, n int) (uint64, bool) {
	x := unsafe.Slice((*T)(p), n)
	m := x[0]
	for _, v := range x[1:] {
		m = min(m, v)
	}
	return bitsIn(m), false // min gives NaN for a NaN itself
}

func maxGo[T Number](p unsafe.Pointer, n int) (uint64, bool) {
	x := unsafe.Slice((*T)(p), n)
	m := x[0]
	for _, v := range x[1:] {
		m = max(m, v)
	}
	return bitsIn(m), false
}

// bitsIn returns a uint64 whose first bytes in memory hold v.
func bitsIn[T Number](v T) uint64 {
	var bits uint64
	*(*T)(unsafe.Pointer(&bits)) = v
	return bits
}

// maxChunk is the most columns a tile kernel call of a vector path takes.
const maxChunk = 1024

// sqDistsGo is [SqDists] in plain Go, accumulating in T.
func sqDistsGo[T Float](dst, a, b []T, n, m, k int) {
	sqDistsRect(dst, a, b, m, k, 0, n, 0, m)
}

// sqDistsRect writes the distances of a's rows [i0, i1) to b's rows [j0, j1) into dst, whose rows hold
// m distances.
func sqDistsRect[T Float](dst, a, b []T, m, k, i0, i1, j0, j1 int) {
	for i := i0; i < i1; i++ {
		row := a[i*k : i*k+k]
		for j := j0; j < j1; j++ {
			col := b[j*k : j*k+k]
			var s T
			for c, v := range row {
				d := v - col[c]
				s += d * d
			}
			dst[i*m+j] = s
		}
	}
}
