package vec

import (
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
