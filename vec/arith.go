package vec

import "unsafe"

// The element-wise arithmetic: each dst[i] is an expression in x[i] (and
// y[i] and z[i], or scalars), each operation rounded to T once as Go's
// operators on T round it, a product before a sum (never fused): every path
// gives the same bits, but for which NaN a NaN result is. dst may be one of
// the operands; a dst that overlaps one otherwise gets unspecified values.

// Add sets each dst[i] to x[i] + y[i]. dst may be x or y. It panics if the
// slices differ in length.
func Add[T Float](dst, x, y []T) { binary("Add", opAdd, dst, x, y) }

// Sub sets each dst[i] to x[i] - y[i]. dst may be x or y. It panics if the
// slices differ in length.
func Sub[T Float](dst, x, y []T) { binary("Sub", opSub, dst, x, y) }

// Mul sets each dst[i] to x[i] * y[i]. dst may be x or y. It panics if the
// slices differ in length.
func Mul[T Float](dst, x, y []T) { binary("Mul", opMul, dst, x, y) }

// Div sets each dst[i] to x[i] / y[i], a true division (not x[i] times the
// reciprocal of y[i]). dst may be x or y. It panics if the slices differ in
// length.
func Div[T Float](dst, x, y []T) { binary("Div", opDiv, dst, x, y) }

// AddConst sets each dst[i] to x[i] + c. dst may be x. It panics if the
// slices differ in length.
func AddConst[T Float](dst, x []T, c T) { unary("AddConst", opAddConst, dst, x, c, 0) }

// SubConst sets each dst[i] to x[i] - c: a softmax's x minus its maximum,
// say. dst may be x. It panics if the slices differ in length. (c - x[i]
// is [MulAddConst](dst, x, -1, c), to the bit.)
func SubConst[T Float](dst, x []T, c T) { unary("SubConst", opAddConst, dst, x, -c, 0) }

// MulConst sets each dst[i] to x[i] * c: [Scale] into another slice. dst
// may be x. It panics if the slices differ in length.
func MulConst[T Float](dst, x []T, c T) { unary("MulConst", opMulConst, dst, x, c, 0) }

// DivConst sets each dst[i] to x[i] / c, a true division each (NumPy's
// x / c; [MulConst] by 1/c is faster and may differ in the last bit). dst
// may be x. It panics if the slices differ in length.
func DivConst[T Float](dst, x []T, c T) { unary("DivConst", opDivConst, dst, x, c, 0) }

// MulAddConst sets each dst[i] to x[i]*a + b, the product rounded before
// the sum, in one pass where NumPy's x*a + b makes two. dst may be x. It
// panics if the slices differ in length.
func MulAddConst[T Float](dst, x []T, a, b T) { unary("MulAddConst", opMulAddConst, dst, x, a, b) }

// SubMulConst sets each dst[i] to (x[i] - b) * a, in one pass: the
// normalization (x - mean) * (1/std), as accurate as its data where
// x*a + (-b*a) loses the digits that x and b share. dst may be x. It panics
// if the slices differ in length.
func SubMulConst[T Float](dst, x []T, b, a T) { unary("SubMulConst", opAddMulConst, dst, x, -b, a) }

// MulAdd sets each dst[i] to x[i]*a[i] + b[i], the product rounded before
// the sum, in one pass: a layer norm's scale by gamma and shift by beta.
// dst may be x, a or b. It panics if the slices differ in length.
func MulAdd[T Float](dst, x, a, b []T) {
	for _, s := range [...][]T{x, a, b} {
		sameLength("MulAdd", len(dst), len(s))
	}
	elementwise(opMulAdd, dst, x, a, b, 0, 0)
}

// Scale multiplies each element of x by a in place, in T's arithmetic:
// integers wrap around, floats round each product once (x[i] *= a).
func Scale[T Number](x []T, a T) {
	k := kindOf[T]()
	for len(x) > 0 {
		n := min(len(x), step)
		p := unsafe.Pointer(unsafe.SliceData(x))
		switch k {
		case f32:
			scaleF32Kernel(unsafe.Slice((*float32)(p), n), *(*float32)(unsafe.Pointer(&a)))
		case f64:
			scaleF64Kernel(unsafe.Slice((*float64)(p), n), *(*float64)(unsafe.Pointer(&a)))
		default:
			// Signed and unsigned products agree in their low bits: one kernel per size.
			scaleIntKernel(k.log2size(), p, n, bitsOf(a))
		}
		x = x[n:]
	}
}

// bitsOf returns the bits of an integer a, sign-extended to 64.
func bitsOf[T Number](a T) uint64 {
	switch unsafe.Sizeof(a) {
	case 1:
		return uint64(*(*uint8)(unsafe.Pointer(&a)))
	case 2:
		return uint64(*(*uint16)(unsafe.Pointer(&a)))
	case 4:
		return uint64(*(*uint32)(unsafe.Pointer(&a)))
	}
	return *(*uint64)(unsafe.Pointer(&a))
}

// Axpy adds a*x to y in place: y[i] += a*x[i], the product rounded to T
// before the sum (never fused into one rounding), so that every path gives
// the same bits. It panics if x and y differ in length.
func Axpy[T Float](y []T, a T, x []T) {
	sameLength("Axpy", len(y), len(x))
	for len(y) > 0 {
		n := min(len(y), step)
		if isFloat32[T]() {
			axpyF32Kernel(as[float32](y[:n]), float32(a), as[float32](x[:n]))
		} else {
			axpyF64Kernel(as[float64](y[:n]), float64(a), as[float64](x[:n]))
		}
		x, y = x[n:], y[n:]
	}
}

// SqDistConst returns the sum of (x[i] - c)², in float64 for float32
// elements too: with x's mean as c, a variance's numerator in one pass,
// without the cancellation of a sum of squares less n·c². Each difference
// and its square are rounded to float64, and the squares added as [Sum]
// adds elements (float32 ones in float64 lanes, float64 ones keeping each
// addition's rounding error): the result is within 4·2⁻⁵³ times itself of
// the exact sum for a float64 x, and about 2⁻⁴² times itself for a float32
// x, where NumPy's ((x - c)**2).sum() rounds each square to x's type and
// adds them pairwise. An empty x gives 0, an infinite element +Inf.
func SqDistConst[T Float](x []T, c float64) float64 {
	if isFloat32[T]() {
		return sqDistConstTree(as[float32](x), c, sqDistConstF32Kernel).value()
	}
	return sqDistConstTree(as[float64](x), c, sqDistConstF64Kernel).value()
}

func sqDistConstTree[T Float](x []T, c float64, block func(x []T, c float64) dd) dd {
	if h := halve(len(x)); h > 0 {
		return sqDistConstTree(x[:h], c, block).plus(sqDistConstTree(x[h:], c, block))
	}
	return block(x, c)
}

func binary[T Float](name string, op arithOp, dst, x, y []T) {
	sameLength(name, len(dst), len(x))
	sameLength(name, len(dst), len(y))
	elementwise(op, dst, x, y, x, 0, 0)
}

func unary[T Float](name string, op arithOp, dst, x []T, a, b T) {
	sameLength(name, len(dst), len(x))
	elementwise(op, dst, x, x, x, a, b)
}

// elementwise runs op over slices of one length; an op that reads fewer
// slices than x, y and z is given x for them.
func elementwise[T Float](op arithOp, dst, x, y, z []T, a, b T) {
	if isFloat32[T]() {
		arithF32Kernel(op, as[float32](dst), as[float32](x), as[float32](y), as[float32](z), float32(a), float32(b))
	} else {
		arithF64Kernel(op, as[float64](dst), as[float64](x), as[float64](y), as[float64](z), float64(a), float64(b))
	}
}

// An arithOp is an element-wise kernel: what it makes of x[i], y[i], z[i], a and b.
type arithOp uint8

const (
	opAdd         arithOp = iota // x + y
	opSub                        // x - y
	opMul                        // x * y
	opDiv                        // x / y
	opAddConst                   // x + a
	opMulConst                   // x * a
	opDivConst                   // x / a
	opMulAddConst                // x*a + b
	opAddMulConst                // (x + a) * b
	opMulAdd                     // x*y + z
	arithOps
)

// operands returns how many of x, y and z op reads.
func (op arithOp) operands() int {
	switch {
	case op == opMulAdd:
		return 3
	case op < opAddConst:
		return 2
	}
	return 1
}

// The kernels of the active path (arith_amd64.go, arith_arm64.go,
// arith_other.go): arithF32Kernel and arithF64Kernel run an arithOp over
// slices of any length, x, y and z as long as dst at least;
// sqDistConstF32Kernel and sqDistConstF64Kernel are SqDistConst's blocks.

// elementwiseGo is every element-wise kernel in plain Go (which the runtime can
// preempt anywhere). x, y and z are as long as dst at least.
func elementwiseGo[T Float](op arithOp, dst, x, y, z []T, a, b T) {
	x, y, z = x[:len(dst)], y[:len(dst)], z[:len(dst)]
	switch op {
	case opAdd:
		for i := range dst {
			dst[i] = x[i] + y[i]
		}
	case opSub:
		for i := range dst {
			dst[i] = x[i] - y[i]
		}
	case opMul:
		for i := range dst {
			dst[i] = x[i] * y[i]
		}
	case opDiv:
		for i := range dst {
			dst[i] = x[i] / y[i]
		}
	case opAddConst:
		for i := range dst {
			dst[i] = x[i] + a
		}
	case opMulConst:
		for i := range dst {
			dst[i] = x[i] * a
		}
	case opDivConst:
		for i := range dst {
			dst[i] = x[i] / a
		}
	case opMulAddConst:
		for i := range dst {
			dst[i] = T(x[i]*a) + b // the conversion rounds the product: no fused multiply-add
		}
	case opAddMulConst:
		for i := range dst {
			dst[i] = (x[i] + a) * b
		}
	case opMulAdd:
		for i := range dst {
			dst[i] = T(x[i]*y[i]) + z[i]
		}
	}
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

// scaleIntGoOf is scaleIntGo of the integers of log2size bytes.
func scaleIntGoOf(log2size int, p unsafe.Pointer, n int, a uint64) {
	switch log2size {
	case 0:
		scaleIntGo[uint8](p, n, a)
	case 1:
		scaleIntGo[uint16](p, n, a)
	case 2:
		scaleIntGo[uint32](p, n, a)
	default:
		scaleIntGo[uint64](p, n, a)
	}
}

// sqDistConstGo adds the squares of x[i] - c: float32 data in four float64
// lanes, as the vector paths' kernels do; float64 data a chunk at a time,
// each chunk's squares by sumF64Go, in compensated lanes.
func sqDistConstGo[T Float](x []T, c float64) dd {
	if isFloat32[T]() {
		var s0, s1, s2, s3 float64
		for ; len(x) >= 4; x = x[4:] {
			d0, d1, d2, d3 := float64(x[0])-c, float64(x[1])-c, float64(x[2])-c, float64(x[3])-c
			s0, s1, s2, s3 = s0+d0*d0, s1+d1*d1, s2+d2*d2, s3+d3*d3
		}
		for _, v := range x {
			d := float64(v) - c
			s0 += d * d
		}
		return dd{(s0 + s1) + (s2 + s3), 0}
	}
	var squares [64]float64
	var s dd
	for len(x) > 0 {
		n := min(len(x), len(squares))
		for i, v := range x[:n] {
			d := float64(v) - c
			squares[i] = d * d
		}
		hi, lo := sumF64Go(squares[:n])
		s = s.plus(dd{hi, lo})
		x = x[n:]
	}
	return s
}
