package vec

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// expSumShifts are the shifts ExpSum is given: a softmax's (the maximum), ordinary values, and the
// special ones.
var expSumShifts = []float64{0, 3.5, -20, 1e-40, math.Copysign(0, -1), 700, math.Inf(1), math.Inf(-1), math.NaN()}

// expSumInputs are float32 or float64 values of every sign and magnitude that Exp cares for, with
// infinities, NaNs, zeros and subnormals among them.
func expSumInputs[T Float](r *rand.Rand, n int) []T {
	x := arithInputs[T](r, n)
	for i := 1; i < n; i += 3 {
		x[i] = T(r.NormFloat64() * 40)
	}
	return x
}

// checkExpSum calls ExpSum(dst, x, shift) and fails the test where dst is not Exp of x - shift rounded
// to T, element by element in plain Go (a NaN for a NaN, of any payload), or where the sum is not
// Sum(dst) to the bit, within Sum's bound of the exact sum (math/big), or breaks the rule for special
// values.
func checkExpSum[T Float](t *testing.T, what string, dst, x []T, shift T) {
	t.Helper()
	want := make([]T, len(x))
	for i, v := range x {
		want[i] = expGo(v - shift)
	}
	got := ExpSum(dst, x, shift)
	if i, ok := sameFloats(dst, want); !ok {
		t.Fatalf("ExpSum %s, shift %v: dst[%d] = %v, want Exp(%v - shift) = %v", what, shift, i, dst[i], x[i], want[i])
	}
	if s := Sum(dst); !sameBits([]float64{got}, []float64{s}) {
		t.Fatalf("ExpSum %s, shift %v: %v, Sum of dst %v", what, shift, got, s)
	}
	nan, inf := false, false
	for _, v := range dst {
		nan = nan || v != v
		inf = inf || math.IsInf(float64(v), 1)
	}
	switch {
	case nan && !math.IsNaN(got):
		t.Errorf("ExpSum %s, shift %v: %v, want NaN (dst holds one)", what, shift, got)
	case !nan && inf && !math.IsInf(got, 1):
		t.Errorf("ExpSum %s, shift %v: %v, want +Inf", what, shift, got)
	case !nan && !inf:
		// Against math/big: the terms are never negative, the sum of their magnitudes is the sum.
		sum, _ := exact(len(dst), func(i int, z *big.Float) *big.Float { return z.SetFloat64(float64(dst[i])) })
		ulps := reductionULPs(len(x))
		if !isFloat32[T]() {
			ulps = 2*math.Log2(float64(len(x))+1) + 16
		}
		within(t, fmt.Sprintf("ExpSum %s, shift %v", what, shift), got, sum, sum, ulps)
	}
}

// expGo is Exp of one element in plain Go.
func expGo[T Float](x T) T {
	if isFloat32[T]() {
		return T(exp32Go(float32(x)))
	}
	return T(exp64Go(float64(x)))
}

func testExpSum[T Float](t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for _, n := range lengths {
		for k, off := range offsets {
			shifts := expSumShifts
			if n > 1000 {
				shifts = shifts[:2] // the long slices: one offset, two shifts, cheap under qemu
				if k != n%len(offsets) {
					continue
				}
			}
			// dst off its allocation's alignment by off, x by another offset, as in testArith.
			in := offsets[(k+1)%len(offsets)]
			x := expSumInputs[T](r, n+in)[in:]
			for _, shift := range shifts {
				dst := randomFloats[T](r, n+off)[off:]
				checkExpSum(t, fmt.Sprintf("of %d at +%d (x at +%d)", n, off, in), dst, x, T(shift))
				inPlace := slices.Clone(x)
				checkExpSum(t, fmt.Sprintf("of %d in place", n), inPlace, inPlace, T(shift))
			}
		}
	}
	// A softmax's rows: the shift their maximum, every result in (0, 1], one of them 1.
	for _, n := range []int{1, 16, 1000, 1024, 4099} {
		x := randomFloats[T](r, n)
		dst := make([]T, n)
		checkExpSum(t, fmt.Sprintf("of %d less its maximum", n), dst, x, Max(x))
	}
}

func TestExpSum(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		t.Run("float32", testExpSum[float32])
		t.Run("float64", testExpSum[float64])
	})
}

// TestExpSumIsSubConstThenExp checks ExpSum's dst against SubConst and then Exp on the same path to
// the bit, a NaN's payload included where only one of x[i] and shift is a NaN.
func TestExpSumIsSubConstThenExp(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 34))
	eachPath(t, func(t *testing.T) {
		x32, x64 := expSumInputs[float32](r, 300), expSumInputs[float64](r, 300)
		x32[5], x64[5] = math.Float32frombits(0x7f812345), math.Float64frombits(0x7ff0000000012345) // signaling
		for _, shift := range append(expSumShifts, float64(math.Float32frombits(0xffc00001)), math.Float64frombits(0x7ff8000000000001)) {
			sameAsTwoCalls(t, x32, float32(shift))
			sameAsTwoCalls(t, x64, shift)
		}
	})
}

func sameAsTwoCalls[T Float](t *testing.T, x []T, shift T) {
	t.Helper()
	want := make([]T, len(x))
	SubConst(want, x, shift)
	Exp(want, want)
	got := make([]T, len(x))
	ExpSum(got, x, shift)
	for i := range got {
		if (x[i] == x[i] || shift == shift) && !sameBits(got[i:i+1], want[i:i+1]) {
			t.Fatalf("ExpSum(%T(%v) - %v) = %#x, SubConst and Exp %#x", x[i], x[i], shift, floatBits(got[i]), floatBits(want[i]))
		}
	}
}

// TestExpSumOverflow checks that a float64 sum that overflows is +Inf, whatever the lanes' order.
func TestExpSumOverflow(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		for _, n := range []int{3, 17, 100} {
			x := make([]float64, n)
			for i := range x {
				x[i] = 709
			}
			if got := ExpSum(x, x, 0); !math.IsInf(got, 1) {
				t.Errorf("ExpSum of %d times e**709 = %v, want +Inf", n, got)
			}
		}
	})
}

func TestExpSumPanics(t *testing.T) {
	x := make([]float32, 10)
	for _, c := range []struct {
		name string
		call func()
		want string
	}{
		{"lengths", func() { ExpSum(x[:3], x[:4], 0) }, "vec.ExpSum: slices of lengths 3 and 4"},
		{"overlap", func() { ExpSum(x[1:5], x[:4], 0) }, "vec.ExpSum: dst and x overlap, 4 bytes apart"},
	} {
		func() {
			defer func() {
				if got := fmt.Sprint(recover()); got != c.want {
					t.Errorf("%s: panic %q, want %q", c.name, got, c.want)
				}
			}()
			c.call()
		}()
	}
	if s := ExpSum(x[:0], x[:0], 1); s != 0 {
		t.Errorf("ExpSum of nothing = %v, want 0", s)
	}
}

func TestExpSumNoAllocations(t *testing.T) {
	x32, x64 := make([]float32, 1000), make([]float64, 20000)
	d32, d64 := make([]float32, 1000), make([]float64, 20000)
	eachPath(t, func(t *testing.T) {
		if n := testing.AllocsPerRun(10, func() {
			ExpSum(d32, x32, 1)
			ExpSum(d64, x64, 0)
		}); n != 0 {
			t.Errorf("%v allocations a call", n)
		}
	})
}

// numpyRows returns rows*d float32s of a standard normal 16 bytes past a 64-byte boundary, where
// NumPy's arrays start.
func numpyRows(rows, d int) []float32 {
	mem := make([]float32, rows*d+32)
	skip := int(-uintptr(unsafe.Pointer(&mem[0]))&63)/4 + 4
	x := mem[skip : skip+rows*d]
	r := rand.New(rand.NewPCG(35, 36))
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// BenchmarkExpSum times ExpSum of a row of 1024 float32s less its maximum, in place, on each path,
// against SubConst, Exp and Sum.
func BenchmarkExpSum(b *testing.B) {
	saved := active
	defer func() { active = saved }()
	row := numpyRows(1, 1024)
	src := slices.Clone(row)
	SubConst(src, src, Max(src))
	for _, p := range paths {
		active = p
		b.Run("ExpSum/"+p.String(), func(b *testing.B) {
			for b.Loop() {
				copy(row, src)
				sink += ExpSum(row, row, 0)
			}
		})
		b.Run("SubConst+Exp+Sum/"+p.String(), func(b *testing.B) {
			for b.Loop() {
				copy(row, src)
				SubConst(row, row, 0)
				Exp(row, row)
				sink += Sum(row)
			}
		})
	}
}

// BenchmarkSoftmaxRows times a softmax of 4096 rows of 1024 float32s in place, as examples/search's
// softmax_ makes it of a NumPy array, against the five calls a row it made before ExpSum; with the
// matrix in the caches (warm), or evicted by 96 MB written before each (cold).
func BenchmarkSoftmaxRows(b *testing.B) {
	const d = 1024
	x := numpyRows(4096, d)
	ways := []struct {
		name string
		rows func()
	}{
		{"Max,SubConst,Exp,Sum,DivConst", func() {
			for row := range slices.Chunk(x, d) {
				SubConst(row, row, Max(row))
				Exp(row, row)
				DivConst(row, row, float32(Sum(row)))
			}
		}},
		{"Max,ExpSum,MulConst", func() {
			for row := range slices.Chunk(x, d) {
				MulConst(row, row, float32(1/ExpSum(row, row, Max(row))))
			}
		}},
		{"Prefetch,Max,ExpSum,MulConst", func() {
			for i := 0; i < len(x); i += d {
				Prefetch(x[i+d : min(i+2*d, len(x))])
				row := x[i : i+d]
				MulConst(row, row, float32(1/ExpSum(row, row, Max(row))))
			}
		}},
	}
	evict := make([]float32, 24<<20)
	for _, cold := range []bool{false, true} {
		for _, w := range ways {
			b.Run(map[bool]string{false: "warm/", true: "cold/"}[cold]+w.name, func(b *testing.B) {
				for b.Loop() {
					if cold {
						b.StopTimer()
						Scale(evict, 1)
						b.StartTimer()
					}
					w.rows()
				}
			})
		}
	}
}
