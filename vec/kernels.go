package vec

import "unsafe"

// A path is a set of kernels: the pure-Go ones, which every build has, or
// an instruction set's vector kernels, each wrapped with the pure-Go kernel
// for the elements outside its whole vectors (vector.go).
//
// Each job's kernel is a function of this build's (kernelsOn, in
// kernels_amd64.go, kernels_arm64.go and kernels_go.go) that switches on the
// active path: Go's linker keeps the kernels of the jobs a program calls
// and drops the others, where a table of every path's kernels, built when
// the package starts, would keep them all in every program that imports
// the package (an extension that calls Dot alone carried every kernel,
// 150 KB of its shared library).
type path uint8

const (
	pathGo path = iota
	pathAVX2
	pathAVX512
	pathNEON
)

func (p path) String() string { return [...]string{"go", "avx2", "avx512", "neon"}[p] }

// active is the path in use: the best that the CPU runs, chosen at start-up.
var active = pathGo

// paths lists every path this build and CPU can run, the pure-Go one last:
// the tests run each.
var paths = []path{pathGo}

// Path names the kernels in use: "avx512" or "avx2" on amd64, "neon" on
// arm64, "go" for the pure-Go path (the build tag purego, or a CPU without
// the instructions).
func Path() string { return active.String() }

// use makes the paths that the CPU runs available, best first, and the first
// of them active.
func use(vector ...path) {
	paths = append(vector, pathGo)
	active = paths[0]
}

// sumIntGoOf is sumIntGo of the integers of kind k.
func sumIntGoOf(k kind, p unsafe.Pointer, n int) uint64 {
	switch k {
	case i8:
		return sumIntGo[int8](p, n)
	case i16:
		return sumIntGo[int16](p, n)
	case i32:
		return sumIntGo[int32](p, n)
	case u8:
		return sumIntGo[uint8](p, n)
	case u16:
		return sumIntGo[uint16](p, n)
	case u32:
		return sumIntGo[uint32](p, n)
	}
	return sumIntGo[uint64](p, n) // int64 and uint64 sum alike
}

// extremeGoOf is minGo (isMin) or maxGo of the numbers of kind k.
func extremeGoOf(k kind, isMin bool, p unsafe.Pointer, n int) (uint64, bool) {
	switch k {
	case i8:
		return extremeGo[int8](isMin, p, n)
	case i16:
		return extremeGo[int16](isMin, p, n)
	case i32:
		return extremeGo[int32](isMin, p, n)
	case i64:
		return extremeGo[int64](isMin, p, n)
	case u8:
		return extremeGo[uint8](isMin, p, n)
	case u16:
		return extremeGo[uint16](isMin, p, n)
	case u32:
		return extremeGo[uint32](isMin, p, n)
	case u64:
		return extremeGo[uint64](isMin, p, n)
	case f32:
		return extremeGo[float32](isMin, p, n)
	}
	return extremeGo[float64](isMin, p, n)
}

func extremeGo[T Number](isMin bool, p unsafe.Pointer, n int) (uint64, bool) {
	if isMin {
		return minGo[T](p, n)
	}
	return maxGo[T](p, n)
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
