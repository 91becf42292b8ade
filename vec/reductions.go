package vec

import (
	"math"
	"unsafe"
)

// Sum returns the sum of x's elements, in float64 for float32 too, about as
// accurately as one rounding of the exact sum: float32 elements are added
// in float64 lanes (each addition exact to float64's precision), float64
// elements in lanes that keep the exact rounding error of each addition
// (TwoSum), and the lanes and the sums of blocks of a few thousand elements
// are added pairwise keeping their rounding errors too. The error is within a unit in the last place of the
// result plus about len(x)·2⁻¹⁰⁶ times the sum of |x[i]| (a float64 x) or
// 2⁻⁴² times it (a float32 x: at most a few thousand exact additions in a
// lane): NumPy's pairwise sum, whose error grows as log2(len(x))·2⁻⁵³
// (float64) or ·2⁻²⁴ (float32) times that sum, is no more accurate. An empty
// x sums to 0. NaN and the infinities follow the package's rule: NaN only
// from a NaN element or infinities of both signs, never from an overflow.
func Sum[T Float](x []T) float64 {
	if s := sum(x).value(); finite(s) || isFloat32[T]() {
		return s
	}
	return resumOf(x)
}

// resumOf is x's sum by resum, for a sum that came out NaN.
func resumOf[T Float](x []T) float64 {
	return resum(len(x), func(lo, hi int) dd { return sum(x[lo:hi]) }, func(a *Accumulator, i int) { a.Add(float64(x[i])) })
}

func sum[T Float](x []T) dd {
	if isFloat32[T]() {
		return sumF32(as[float32](x))
	}
	return sumF64(as[float64](x))
}

func sumF32(x []float32) dd {
	if h := halve(len(x)); h > 0 {
		return sumF32(x[:h]).plus(sumF32(x[h:]))
	}
	return dd{sumF32Kernel(x), 0}
}

func sumF64(x []float64) dd {
	if h := halve(len(x)); h > 0 {
		return sumF64(x[:h]).plus(sumF64(x[h:]))
	}
	hi, lo := sumF64Kernel(x)
	return dd{hi, lo}
}

// ParallelSum is [Sum] on up to [Threads] goroutines, the calling one among
// them, for a large x ([Workers]): the same result to the bit, whatever the
// count.
func ParallelSum[T Float](x []T) float64 {
	w := Workers(len(x), int(unsafe.Sizeof(T(0))))
	if w <= 1 {
		return Sum(x)
	}
	if s := parallelTree(len(x), w, func(lo, hi int) dd { return sum(x[lo:hi]) }).value(); finite(s) || isFloat32[T]() {
		return s
	}
	return resumOf(x)
}

// parallelTree reduces [0, n) as the pairwise tree of [halve] does, its top
// halves on w goroutines, reduce(lo, hi) giving the sum of a subtree.
func parallelTree(n, w int, reduce func(lo, hi int) dd) dd {
	beginSplit(w)
	defer endSplit()
	return parallelSubtree(0, n, w, reduce)
}

func parallelSubtree(lo, hi, w int, reduce func(lo, hi int) dd) dd {
	h := halve(hi - lo)
	if h == 0 || w <= 1 {
		return reduce(lo, hi)
	}
	var left dd
	var failure any
	var wg waiter
	wg.add(1)
	go func() {
		defer wg.done()
		defer func() { failure = recover() }()
		left = parallelSubtree(lo, lo+h, w/2, reduce)
	}()
	right := parallelSubtree(lo+h, hi, w-w/2, reduce)
	wg.wait()
	if failure != nil {
		panic(failure)
	}
	return left.plus(right)
}

// SumInt returns the sum of x's elements in int64, which wraps around on
// overflow as NumPy's sum does.
func SumInt[T Signed](x []T) int64 {
	return int64(sumInt(x, kindOf[T]()))
}

// SumUint returns the sum of x's elements in uint64, which wraps around on
// overflow.
func SumUint[T Unsigned](x []T) uint64 {
	return sumInt(x, kindOf[T]())
}

func sumInt[T Integer](x []T, k kind) uint64 {
	var total uint64
	for len(x) > 0 {
		n := min(len(x), step)
		total += sumIntKernel(k, unsafe.Pointer(unsafe.SliceData(x)), n)
		x = x[n:]
	}
	return total
}

// Dot returns the dot product of x and y, the sum of x[i]*y[i], in float64
// (float32 elements are multiplied and added in float64 lanes), with the
// lanes and blocks combined as [Sum]'s are. It panics if x and y differ in
// length.
func Dot[T Float](x, y []T) float64 {
	sameLength("Dot", len(x), len(y))
	if s := dot(x, y).value(); finite(s) || isFloat32[T]() {
		return s
	}
	return redotOf(x, y)
}

// redotOf is the dot product of x and y by resum, for a sum that came out
// NaN.
func redotOf[T Float](x, y []T) float64 {
	return resum(len(x), func(lo, hi int) dd { return dot(x[lo:hi], y[lo:hi]) },
		func(a *Accumulator, i int) { a.AddProduct(float64(x[i]), float64(y[i])) })
}

func dot[T Float](x, y []T) dd {
	if isFloat32[T]() {
		return dotF32(as[float32](x), as[float32](y))
	}
	return dotF64(as[float64](x), as[float64](y))
}

func dotF32(x, y []float32) dd {
	if h := halve(len(x)); h > 0 {
		return dotF32(x[:h], y[:h]).plus(dotF32(x[h:], y[h:]))
	}
	return dd{dotF32Kernel(x, y), 0}
}

func dotF64(x, y []float64) dd {
	if h := halve(len(x)); h > 0 {
		return dotF64(x[:h], y[:h]).plus(dotF64(x[h:], y[h:]))
	}
	return dd{dotF64Kernel(x, y), 0}
}

// ParallelDot is [Dot] on up to [Threads] goroutines, the calling one among
// them, for large x and y ([Workers]): the same result to the bit, whatever
// the count.
func ParallelDot[T Float](x, y []T) float64 {
	sameLength("ParallelDot", len(x), len(y))
	w := Workers(len(x), 2*int(unsafe.Sizeof(T(0))))
	if w <= 1 {
		return Dot(x, y)
	}
	if s := parallelTree(len(x), w, func(lo, hi int) dd { return dot(x[lo:hi], y[lo:hi]) }).value(); finite(s) || isFloat32[T]() {
		return s
	}
	return redotOf(x, y)
}

// SqDist returns the squared Euclidean distance of x and y, the sum of
// (x[i]-y[i])², in float64 as [Dot] is. It panics if x and y differ in
// length.
func SqDist[T Float](x, y []T) float64 {
	sameLength("SqDist", len(x), len(y))
	if s := sqDist(x, y).value(); finite(s) || isFloat32[T]() {
		return s
	}
	return resum(len(x), func(lo, hi int) dd { return sqDist(x[lo:hi], y[lo:hi]) }, func(a *Accumulator, i int) {
		a.addSquare(float64(x[i]), float64(y[i]))
	})
}

func sqDist[T Float](x, y []T) dd {
	if isFloat32[T]() {
		return sqDistF32(as[float32](x), as[float32](y))
	}
	return sqDistF64(as[float64](x), as[float64](y))
}

func sqDistF32(x, y []float32) dd {
	if h := halve(len(x)); h > 0 {
		return sqDistF32(x[:h], y[:h]).plus(sqDistF32(x[h:], y[h:]))
	}
	return dd{sqDistF32Kernel(x, y), 0}
}

func sqDistF64(x, y []float64) dd {
	if h := halve(len(x)); h > 0 {
		return sqDistF64(x[:h], y[:h]).plus(sqDistF64(x[h:], y[h:]))
	}
	return dd{sqDistF64Kernel(x, y), 0}
}

// Min returns the smallest element of x, as the built-in min would: NaN if
// x holds a NaN. Of a -0 and a +0 it may return either. It panics if x is
// empty, as slices.Min does.
func Min[T Number](x []T) T {
	return extreme(x, "Min")
}

// Max returns the largest element of x, as the built-in max would: NaN if x
// holds a NaN. Of a -0 and a +0 it may return either. It panics if x is
// empty, as slices.Max does.
func Max[T Number](x []T) T {
	return extreme(x, "Max")
}

func extreme[T Number](x []T, name string) T {
	if len(x) == 0 {
		panic("vec." + name + ": empty slice")
	}
	k := kindOf[T]()
	m := x[0]
	nan := false
	for len(x) > 0 {
		n := min(len(x), step)
		bits, sawNaN := extremeKernel(k, name == "Min", unsafe.Pointer(unsafe.SliceData(x)), n)
		part := *(*T)(unsafe.Pointer(&bits))
		nan = nan || sawNaN
		if name == "Min" {
			m = min(m, part)
		} else {
			m = max(m, part)
		}
		x = x[n:]
	}
	if nan {
		return T(math.NaN())
	}
	return m
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
