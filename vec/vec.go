package vec

import (
	"math"
	"unsafe"

	"github.com/godlpack/godlpack/internal/fmt"
)

// Float is the set of float types the float kernels take.
type Float interface{ ~float32 | ~float64 }

// Signed is the set of signed integer types.
type Signed interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64
}

// Unsigned is the set of unsigned integer types.
type Unsigned interface {
	~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr
}

// Integer is the set of integer types.
type Integer interface{ Signed | Unsigned }

// Number is the set of types [Scale], [Min] and [Max] take.
type Number interface{ Integer | Float }

// leaf is the length of the blocks that [Sum], [Dot] and [SqDist] reduce
// with one pass of a vector kernel before they add the blocks' sums
// pairwise. A block takes a few microseconds at most: the runtime can
// preempt the goroutine between two.
const leaf = 8192

// step is the most elements that the kernels without a reduction tree
// (integer sums, [Scale], [Axpy], [Min], [Max]) hand one kernel call.
const step = 1 << 16

// halve returns where the pairwise reduction of n elements splits them: 0
// for a single block, else the end of the first half of the blocks.
func halve(n int) int {
	if n <= leaf {
		return 0
	}
	blocks := (n + leaf - 1) / leaf
	return (blocks + 1) / 2 * leaf
}

// A dd is a float sum not yet rounded: hi + lo exactly, |lo| small. Once
// hi is not finite (an infinity or NaN among the terms, or an overflow), it
// is the sum, and lo, whose rounding errors came from additions to an
// infinity (inf - inf), means nothing: [finish] decides what it is.
type dd struct{ hi, lo float64 }

// plus adds the sums a and b, keeping the rounding error of their his.
func (a dd) plus(b dd) dd {
	s, e := twoSum(a.hi, b.hi)
	if !finite(s) {
		return dd{s, 0}
	}
	return dd{s, (a.lo + b.lo) + e}
}

func (a dd) value() float64 {
	if !finite(a.hi) {
		return a.hi
	}
	return a.hi + a.lo
}

// finite reports whether x is neither an infinity nor NaN.
func finite(x float64) bool { return x-x == 0 }

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

func sameLength(name string, n, m int) {
	if n != m {
		panic(fmt.Sprintf("vec.%s: slices of lengths %d and %d", name, n, m))
	}
}

// as views x as a slice of U, a type of the same size.
func as[U, T any](x []T) []U {
	return unsafe.Slice((*U)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
}

func isFloat32[T Float]() bool { return unsafe.Sizeof(T(0)) == 4 }

// A kind names an element type of the kernels.
type kind uint8

const (
	i8 kind = iota
	i16
	i32
	i64
	u8
	u16
	u32
	u64
	f32
	f64
	kinds
)

func (k kind) log2size() int {
	if k >= f32 {
		return int(k-f32) + 2
	}
	return int(k % 4)
}

// kindOf returns T's kind: its size, and whether it is a float or signed.
func kindOf[T Number]() kind {
	one := T(1)
	var k kind
	switch unsafe.Sizeof(one) {
	case 2:
		k = i16
	case 4:
		k = i32
	case 8:
		k = i64
	}
	switch {
	case one/2 != 0: // a float
		return f32 + k - i32
	case T(0)-one > 0: // unsigned
		return k + u8
	}
	return k
}
