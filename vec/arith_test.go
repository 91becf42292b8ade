package vec

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"
)

// An arithCase is an element-wise function and, written apart from its kernels, what it makes of each
// element: the reference every path must give to the bit (a NaN for a NaN, of any payload).
type arithCase[T Float] struct {
	name   string
	inputs int // the slices it reads: x, then y, then z
	call   func(dst, x, y, z []T, a, b T)
	want   func(x, y, z, a, b T) T
}

func arithCases[T Float]() []arithCase[T] {
	return []arithCase[T]{
		{"Add", 2, func(d, x, y, _ []T, _, _ T) { Add(d, x, y) }, func(x, y, _, _, _ T) T { return x + y }},
		{"Sub", 2, func(d, x, y, _ []T, _, _ T) { Sub(d, x, y) }, func(x, y, _, _, _ T) T { return x - y }},
		{"Mul", 2, func(d, x, y, _ []T, _, _ T) { Mul(d, x, y) }, func(x, y, _, _, _ T) T { return x * y }},
		{"Div", 2, func(d, x, y, _ []T, _, _ T) { Div(d, x, y) }, func(x, y, _, _, _ T) T { return x / y }},
		{"AddConst", 1, func(d, x, _, _ []T, a, _ T) { AddConst(d, x, a) }, func(x, _, _, a, _ T) T { return x + a }},
		{"SubConst", 1, func(d, x, _, _ []T, a, _ T) { SubConst(d, x, a) }, func(x, _, _, a, _ T) T { return x - a }},
		{"MulConst", 1, func(d, x, _, _ []T, a, _ T) { MulConst(d, x, a) }, func(x, _, _, a, _ T) T { return x * a }},
		{"DivConst", 1, func(d, x, _, _ []T, a, _ T) { DivConst(d, x, a) }, func(x, _, _, a, _ T) T { return x / a }},
		{"MulAddConst", 1, func(d, x, _, _ []T, a, b T) { MulAddConst(d, x, a, b) },
			func(x, _, _, a, b T) T { return T(x*a) + b }},
		{"SubMulConst", 1, func(d, x, _, _ []T, a, b T) { SubMulConst(d, x, a, b) },
			func(x, _, _, a, b T) T { return (x - a) * b }},
		{"MulAdd", 3, func(d, x, y, z []T, _, _ T) { MulAdd(d, x, y, z) },
			func(x, y, z, _, _ T) T { return T(x*y) + z }},
	}
}

// arithInputs returns random floats with NaNs, infinities, zeros of both signs, subnormals and extremes
// among them.
func arithInputs[T Float](r *rand.Rand, n int) []T {
	x := floatsWithSpecials[T](r, n)
	for i := 3; i < n; i += 11 {
		x[i] = T(math.NaN())
	}
	return x
}

// scalarPairs are the a and b the functions with scalars are given: ordinary values, and the special
// ones IEEE treats apart.
var scalarPairs = [][2]float64{{1.5, -0.75}, {-3.25e-3, 1e3}, {0, 0}, {math.Copysign(0, -1), 2},
	{math.Inf(1), 1}, {math.NaN(), 0}, {1e-40, math.Inf(-1)}}

func testArith[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for _, c := range arithCases[T]() {
		for _, n := range lengths {
			for k, off := range offsets {
				if n > 1000 && k != n%len(offsets) {
					continue // one offset for the long slices: the tests stay cheap under qemu
				}
				// dst starts off its allocation's alignment by off, the inputs by another offset: only
				// dst's vectors can be aligned, as with NumPy's arrays.
				in := offsets[(k+1)%len(offsets)]
				var ops [3][]T
				for i := range ops {
					ops[i] = arithInputs[T](r, n+in)[in:]
				}
				pairs := scalarPairs
				if c.inputs > 1 || n > 1000 {
					pairs = pairs[:1]
				}
				for _, ab := range pairs {
					a, b := T(ab[0]), T(ab[1])
					mem := randomFloats[T](r, n+off+1)
					want := slices.Clone(mem)
					for i := range n {
						want[off+i] = c.want(ops[0][i], ops[1][i], ops[2][i], a, b)
					}
					c.call(mem[off:off+n], ops[0], ops[1], ops[2], a, b)
					if _, ok := sameFloats(mem, want); !ok {
						t.Fatalf("%s of %d at +%d (inputs at +%d), a=%v b=%v: %v, want %v", c.name, n, off, in, a, b,
							mem, want)
					}
				}
			}
		}
	}
}

func TestArith(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testArith[float32])
		t.Run("float64", testArith[float64])
	})
}

// testArithInPlace gives each function its dst as one of its inputs, x, y or z in turn.
func testArithInPlace[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	for _, c := range arithCases[T]() {
		for _, n := range []int{0, 1, 17, 100, 1000, 4099} {
			for alias := range c.inputs {
				ops := [3][]T{arithInputs[T](r, n), arithInputs[T](r, n), arithInputs[T](r, n)}
				want := make([]T, n)
				for i := range want {
					want[i] = c.want(ops[0][i], ops[1][i], ops[2][i], 1.5, -0.75)
				}
				c.call(ops[alias], ops[0], ops[1], ops[2], 1.5, -0.75)
				if _, ok := sameFloats(ops[alias], want); !ok {
					t.Fatalf("%s of %d into input %d: %v, want %v", c.name, n, alias, ops[alias], want)
				}
			}
		}
	}
}

func TestArithInPlace(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testArithInPlace[float32])
		t.Run("float64", testArithInPlace[float64])
	})
}

// testArithEdges starts dst at every element of a 64-byte line, in place and apart from the inputs
// (whose offset differs), for the lengths that fill a vector's head and tail in every way: the AVX-512
// kernels take those under masks.
func testArithEdges[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	mem := make([]T, 256)
	for _, c := range arithCases[T]() {
		for _, n := range []int{1, 2, 5, 15, 16, 17, 31, 40, 70} {
			for off := range 64 / int(unsafe.Sizeof(T(0))) {
				var ops [3][]T
				for i := range ops {
					ops[i] = arithInputs[T](r, n+3)[3:]
				}
				want := make([]T, n)
				for i := range want {
					want[i] = c.want(ops[0][i], ops[1][i], ops[2][i], 1.5, -0.75)
				}
				copy(mem, randomFloats[T](r, len(mem)))
				before := slices.Clone(mem)
				c.call(mem[off:off+n], ops[0], ops[1], ops[2], 1.5, -0.75)
				if _, ok := sameFloats(mem[off:off+n], want); !ok || !sameBits(mem[:off], before[:off]) ||
					!sameBits(mem[off+n:], before[off+n:]) {
					t.Fatalf("%s of %d at +%d: %v, want %v (and the rest untouched)", c.name, n, off, mem[off:off+n], want)
				}
				copy(mem[off:], ops[0])
				c.call(mem[off:off+n], mem[off:off+n], ops[1], ops[2], 1.5, -0.75)
				if _, ok := sameFloats(mem[off:off+n], want); !ok {
					t.Fatalf("%s of %d at +%d in place: %v, want %v", c.name, n, off, mem[off:off+n], want)
				}
			}
		}
	}
}

func TestArithEdges(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testArithEdges[float32])
		t.Run("float64", testArithEdges[float64])
	})
}

// TestArithIEEE checks what IEEE gives special operands, written out, in every lane of the vector kernels
// and in the elements they leave to Go.
func TestArithIEEE(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testArithIEEE[float32])
		t.Run("float64", testArithIEEE[float64])
	})
}

func testArithIEEE[T Float](t *testing.T) {
	inf, nan, negZero := T(math.Inf(1)), T(math.NaN()), T(math.Copysign(0, -1))
	byName := map[string]arithCase[T]{}
	for _, c := range arithCases[T]() {
		byName[c.name] = c
	}
	for _, e := range []struct {
		name                string
		x, y, z, a, b, want T
	}{
		{"Add", negZero, negZero, 0, 0, 0, negZero},
		{"Add", negZero, 0, 0, 0, 0, 0},
		{"Add", inf, -inf, 0, 0, 0, nan},
		{"Add", 1, nan, 0, 0, 0, nan},
		{"Sub", 0, 0, 0, 0, 0, 0},
		{"Sub", negZero, 0, 0, 0, 0, negZero},
		{"Sub", inf, inf, 0, 0, 0, nan},
		{"Mul", 0, inf, 0, 0, 0, nan},
		{"Mul", negZero, 3, 0, 0, 0, negZero},
		{"Div", 1, negZero, 0, 0, 0, -inf},
		{"Div", 0, 0, 0, 0, 0, nan},
		{"Div", 1e-30, 1e30, 0, 0, 0, T(1e-30) / T(1e30)}, // a subnormal float32, a small normal float64
		{"AddConst", negZero, 0, 0, negZero, 0, negZero},
		{"SubConst", 0, 0, 0, 0, 0, 0},
		{"SubConst", negZero, 0, 0, 0, 0, negZero},
		{"SubConst", 1, 0, 0, nan, 0, nan},
		{"MulConst", -2, 0, 0, 0, 0, negZero},
		{"DivConst", -1, 0, 0, 0, 0, -inf},
		{"DivConst", inf, 0, 0, inf, 0, nan},
		{"MulAddConst", -1, 0, 0, 0, 0, 0},
		{"MulAddConst", -1, 0, 0, 0, negZero, negZero},
		{"MulAddConst", 2, 0, 0, inf, -inf, nan},
		// Never fused: 0.1 times 10 rounds to 1 before the 1 is taken away, where a fused multiply-add
		// leaves 0.1's rounding error.
		{"MulAddConst", 0.1, 0, 0, 10, -1, 0},
		{"MulAdd", 0.1, 10, -1, 0, 0, 0},
		{"MulAdd", negZero, 1, negZero, 0, 0, negZero},
		{"SubMulConst", 3, 0, 0, 3, -2, negZero},
		{"SubMulConst", inf, 0, 0, inf, 1, nan},
	} {
		c := byName[e.name]
		const n = 67 // the lanes of a few vectors, and elements outside them
		fill := func(v T) []T {
			s := make([]T, n+1)[1:] // off the allocation's alignment
			for i := range s {
				s[i] = v
			}
			return s
		}
		got := make([]T, n)
		c.call(got, fill(e.x), fill(e.y), fill(e.z), e.a, e.b)
		if _, ok := sameFloats(got, fill(e.want)); !ok {
			t.Errorf("%s of x=%v y=%v z=%v a=%v b=%v: %v, want %v", e.name, e.x, e.y, e.z, e.a, e.b, got, e.want)
		}
	}
}

func TestArithPanics(t *testing.T) {
	a, b := make([]float32, 3), make([]float32, 4)
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"Add", func() { Add(a, b, b) }},
		{"Add", func() { Add(a, a, b) }},
		{"Sub", func() { Sub(b, a, b) }},
		{"Mul", func() { Mul(a, a, b) }},
		{"Div", func() { Div(a, b, a) }},
		{"AddConst", func() { AddConst(a, b, 1) }},
		{"SubConst", func() { SubConst(b, a, 1) }},
		{"MulConst", func() { MulConst(a, b, 1) }},
		{"DivConst", func() { DivConst(a, b, 1) }},
		{"MulAddConst", func() { MulAddConst(a, b, 1, 2) }},
		{"SubMulConst", func() { SubMulConst(b, a, 1, 2) }},
		{"MulAdd", func() { MulAdd(a, b, a, a) }},
		{"MulAdd", func() { MulAdd(a, a, b, a) }},
		{"MulAdd", func() { MulAdd(a, a, a, b) }},
	} {
		func() {
			defer func() {
				r := recover()
				if want := fmt.Sprintf("vec.%s: slices of lengths ", c.name); r == nil || !strings.HasPrefix(fmt.Sprint(r), want) {
					t.Errorf("%s panicked with %v, want %q...", c.name, r, want)
				}
			}()
			c.f()
		}()
	}
}

func testSqDistConst[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(25, 26))
	for _, n := range lengths {
		for _, off := range offsets {
			cs := []float64{0, 1000.1, -3.5}
			if n > 1000 && off != 1 {
				continue // the exact sums of long slices take their time: one offset, around the mean
			}
			x := randomFloats[T](r, n+off)[off:]
			for i := range x {
				x[i] += 1000 // a mean far from 0, as data often have: the squares of x cancel, those of x - c do not
			}
			mean := Sum(x) / float64(max(n, 1))
			if n > 1000 {
				cs = cs[:0]
			}
			for _, c := range append(cs, mean) {
				want, mag := exact(n, func(i int, z *big.Float) *big.Float {
					d := new(big.Float).Sub(big.NewFloat(float64(x[i])), big.NewFloat(c))
					return z.Mul(d, d)
				})
				// Each term's difference and square round once (3 units of float64); the float32 lanes
				// add without compensation.
				ulps := 4.0
				if isFloat32[T]() {
					ulps = reductionULPs(n)
				}
				within(t, fmt.Sprintf("SqDistConst of %d at +%d from %v", n, off, c), SqDistConst(x, c), want, mag, ulps)
			}
		}
	}
	for _, c := range []struct {
		x    []T
		want float64
	}{
		{nil, 0},
		{[]T{1, T(math.NaN()), 2}, math.NaN()},
		{[]T{1, T(math.Inf(-1))}, math.Inf(1)},
		{[]T{T(math.MaxFloat32), T(-math.MaxFloat32)}, 2 * (math.MaxFloat32 * math.MaxFloat32)},
	} {
		got := SqDistConst(c.x, 0)
		if _, ok := sameFloats([]float64{got}, []float64{c.want}); !ok {
			t.Errorf("SqDistConst(%v, 0) = %v, want %v", c.x, got, c.want)
		}
	}
}

func TestSqDistConst(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testSqDistConst[float32])
		t.Run("float64", testSqDistConst[float64])
	})
}

// TestSqDistConstBeatsNumPys compares SqDistConst of float64 data with NumPy's ((x - c)**2).sum(): its
// terms rounded as ours, then added by NumPy's pairwise summation. Ours is never further from the exact
// sum, but by the rounding of the result.
func TestSqDistConstBeatsNumPys(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 28))
	eachPath(t, func(t *testing.T) {
		for _, n := range []int{1000, 100_000} {
			x := make([]float64, n)
			for i := range x {
				x[i] = r.NormFloat64() * math.Ldexp(1, r.IntN(30))
			}
			want, _ := exact(n, func(i int, z *big.Float) *big.Float {
				d := big.NewFloat(x[i])
				return z.Mul(d, d)
			})
			squares := make([]float64, n)
			Mul(squares, x, x)
			halfULP := (math.Nextafter(want, math.Inf(1)) - want) / 2
			ours, theirs := math.Abs(SqDistConst(x, 0)-want), math.Abs(numpySum(squares)-want)
			if ours > max(theirs, halfULP) {
				t.Errorf("%d elements: error %g, NumPy's %g", n, ours, theirs)
			}
		}
	})
}

func TestArithNoAllocations(t *testing.T) {
	x, y := make([]float32, step+5), make([]float32, step+5)
	z := make([]float64, 3*leaf+5)
	eachPath(t, func(t *testing.T) {
		for name, f := range map[string]func(){
			"binary":      func() { Add(x, x, y); Sub(y, x, y); Mul(z, z, z); Div(z, z, z) },
			"const":       func() { AddConst(x, y, 1); SubConst(z, z, 1); MulConst(x, x, 2); DivConst(z, z, 3) },
			"combined":    func() { MulAddConst(x, y, 1, 2); SubMulConst(z, z, 1, 2); MulAdd(x, x, y, x) },
			"SqDistConst": func() { SqDistConst(x, 1); SqDistConst(z, 2) },
		} {
			if n := testing.AllocsPerRun(10, f); n != 0 {
				t.Errorf("%s: %v allocations", name, n)
			}
		}
	})
}

func testScale[T Number](t *testing.T, random func(r *rand.Rand, n int) []T, factors ...T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range lengths {
		for _, off := range offsets {
			for _, a := range factors {
				mem := random(r, n+off+1)
				x := mem[off : off+n]
				want := slices.Clone(mem)
				for i := off; i < off+n; i++ {
					want[i] *= a
				}
				Scale(x, a)
				if !sameBits(mem, want) {
					t.Fatalf("Scale of %d %T at +%d by %v: %v, want %v", n, a, off, a, mem, want)
				}
			}
		}
	}
}

func TestScale(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", func(t *testing.T) { testScale(t, floatsWithSpecials[float32], 1.5, -3.25e-3, 0, 1e30) })
		t.Run("float64", func(t *testing.T) { testScale(t, floatsWithSpecials[float64], 1.5, -3.25e-3, 0, 1e300) })
		t.Run("int8", func(t *testing.T) { testScale(t, randomInts[int8], 3, -1, 0, 127, -128) })
		t.Run("uint8", func(t *testing.T) { testScale(t, randomInts[uint8], 3, 255, 0, 128) })
		t.Run("int16", func(t *testing.T) { testScale(t, randomInts[int16], 3, -7, 0, 32767) })
		t.Run("uint16", func(t *testing.T) { testScale(t, randomInts[uint16], 3, 65535) })
		t.Run("int32", func(t *testing.T) { testScale(t, randomInts[int32], 3, -7, 1<<31-1) })
		t.Run("uint32", func(t *testing.T) { testScale(t, randomInts[uint32], 3, 1<<32-1) })
		t.Run("int64", func(t *testing.T) { testScale(t, randomInts[int64], 3, -7, math.MinInt64) })
		t.Run("uint64", func(t *testing.T) { testScale(t, randomInts[uint64], 3, 1<<64-1) })
	})
}

func testAxpy[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, n := range lengths {
		for _, off := range offsets {
			a := T(r.NormFloat64())
			x := floatsWithSpecials[T](r, n)
			mem := randomFloats[T](r, n+off+1)
			y := mem[off : off+n]
			want := slices.Clone(mem)
			for i := range n {
				want[off+i] += T(a * x[i])
			}
			Axpy(y, a, x)
			if !sameBits(mem, want) {
				t.Fatalf("Axpy of %d at +%d: %v, want %v", n, off, mem, want)
			}
		}
	}
}

func TestAxpy(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testAxpy[float32])
		t.Run("float64", testAxpy[float64])
	})
}

func BenchmarkScale(b *testing.B) {
	benchPaths(b, "float32", func(b *testing.B, x []float32) { Scale(x, 1) })
	benchPaths(b, "float64", func(b *testing.B, x []float64) { Scale(x, 1) })
	benchPaths(b, "int32", func(b *testing.B, x []int32) { Scale(x, 1) })
}

func BenchmarkArith(b *testing.B) {
	benchPaths(b, "Add/float32", func(b *testing.B, x []float32) { Add(x, x, x) })
	benchPaths(b, "Add/float64", func(b *testing.B, x []float64) { Add(x, x, x) })
	benchPaths(b, "DivConst/float32", func(b *testing.B, x []float32) { DivConst(x, x, 3) })
	benchPaths(b, "MulAdd/float32", func(b *testing.B, x []float32) { MulAdd(x, x, x, x) })
	benchPaths(b, "SqDistConst/float32", func(b *testing.B, x []float32) { sink += SqDistConst(x, 1) })
	benchPaths(b, "SqDistConst/float64", func(b *testing.B, x []float64) { sink += SqDistConst(x, 1) })
}
