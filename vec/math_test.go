package vec

import (
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"
	"unsafe"
)

// The float32 functions are checked on every float32 (4.3 billion inputs,
// each path) by TestMathExhaustive32, which runs only when asked: with
// -vec.exhaustive or the environment variable GODLPACK_VEC_EXHAUSTIVE=1
// (minutes; -vec.stride=k checks every k-th float instead). go test ./vec
// checks a sample and every edge, in well under a second.
var (
	exhaustive = flag.Bool("vec.exhaustive", os.Getenv("GODLPACK_VEC_EXHAUSTIVE") == "1",
		"check Exp, Log and Tanh on every float32")
	stride = flag.Int("vec.stride", 1, "with -vec.exhaustive, check every k-th float32 only")
)

// mathFunc is one of the functions under test with its float64 reference
// (math's, within a unit of float64's last place: far below float32's) and
// its exact value.
type mathFunc struct {
	name  string
	f32   func(dst, x []float32)
	f64   func(dst, x []float64)
	ref   func(float64) float64
	exact func(*big.Float) *big.Float
	// defined reports whether the exact value is a real number (not NaN or infinite by definition).
	defined func(float64) bool
}

var mathFuncs = []mathFunc{
	{"Exp", Exp[float32], Exp[float64], math.Exp, bigExp, func(x float64) bool { return !math.IsInf(x, 0) }},
	{"Log", Log[float32], Log[float64], math.Log, bigLog, func(x float64) bool { return x > 0 && !math.IsInf(x, 0) }},
	{"Tanh", Tanh[float32], Tanh[float64], math.Tanh, bigTanh, func(x float64) bool { return !math.IsInf(x, 0) }},
}

// ulps32f is ulps32 against a float64 reference, within float32's range or beyond it.
func ulps32f(got float32, want float64) float64 {
	if want == 0 {
		if got == 0 {
			return 0
		}
		return math.Inf(1)
	}
	if math.Abs(want) >= math.MaxFloat32+0x1p103 { // rounds to infinity
		if math.IsInf(float64(got), 0) && (got > 0) == (want > 0) {
			return 0
		}
		return math.Inf(1)
	}
	ulp := math.Ldexp(1, max(math.Ilogb(want), -126)-23)
	return math.Abs(float64(got)-want) / ulp
}

// specialCase is an input and the result every path must give, to the bit.
type specialCase struct {
	fn   string
	x, y float64
}

var nan32, nan64 = math.Float32frombits(0x7fc00000), math.Float64frombits(0x7ff8000000000000)

func TestMathSpecialValues(t *testing.T) {
	inf := math.Inf(1)
	cases := []specialCase{
		{"Exp", 0, 1}, {"Exp", math.Copysign(0, -1), 1}, {"Exp", inf, inf}, {"Exp", -inf, 0},
		{"Exp", 1000, inf}, {"Exp", -1000, 0},
		{"Log", 1, 0}, {"Log", 0, -inf}, {"Log", math.Copysign(0, -1), -inf}, {"Log", inf, inf},
		{"Tanh", 0, 0}, {"Tanh", math.Copysign(0, -1), math.Copysign(0, -1)}, {"Tanh", inf, 1}, {"Tanh", -inf, -1},
		{"Tanh", 30, 1}, {"Tanh", -30, -1}, {"Tanh", 1e-30, 1e-30}, {"Tanh", -1e-30, -1e-30},
	}
	eachPath(t, func(t *testing.T) {
		for _, f := range mathFuncs {
			for _, c := range cases {
				if c.fn != f.name {
					continue
				}
				x32, x64 := []float32{float32(c.x)}, []float64{c.x}
				f.f32(x32, x32)
				f.f64(x64, x64)
				if want := float32(c.y); math.Float32bits(x32[0]) != math.Float32bits(want) {
					t.Errorf("%s(float32(%v)) = %v, want %v", f.name, c.x, x32[0], want)
				}
				if math.Float64bits(x64[0]) != math.Float64bits(c.y) {
					t.Errorf("%s(%v) = %v, want %v", f.name, c.x, x64[0], c.y)
				}
			}
		}
		// A NaN comes back quiet, sign and payload kept; Log of a negative is the x86 default NaN.
		for _, f := range mathFuncs {
			x32 := []float32{math.Float32frombits(0x7f812345), math.Float32frombits(0xffc00001), nan32}
			x64 := []float64{math.Float64frombits(0x7ff0000000012345), math.Float64frombits(0xfff8000000000001), nan64}
			d32, d64 := make([]float32, 3), make([]float64, 3)
			f.f32(d32, x32)
			f.f64(d64, x64)
			for i := range x32 {
				if got, want := math.Float32bits(d32[i]), math.Float32bits(x32[i])|0x00400000; got != want {
					t.Errorf("%s(float32 NaN %#x) = %#x, want %#x", f.name, math.Float32bits(x32[i]), got, want)
				}
				if got, want := math.Float64bits(d64[i]), math.Float64bits(x64[i])|1<<51; got != want {
					t.Errorf("%s(NaN %#x) = %#x, want %#x", f.name, math.Float64bits(x64[i]), got, want)
				}
			}
		}
		for _, x := range []float64{-1, -inf, -0x1p-149, -math.SmallestNonzeroFloat64} {
			d32, d64 := []float32{float32(x)}, []float64{x}
			Log(d32, d32)
			Log(d64, d64)
			if math.Float64bits(d64[0]) != 0xfff8000000000000 {
				t.Errorf("Log(%v) = %#x, want the default NaN", x, math.Float64bits(d64[0]))
			}
			if float32(x) != 0 && math.Float32bits(d32[0]) != 0xffc00000 {
				t.Errorf("Log(float32(%v)) = %#x, want the default NaN", x, math.Float32bits(d32[0]))
			}
		}
	})
}

// edges32 returns the float32s around each point: those a few units apart, either side.
func edges32(points ...float64) []float32 {
	var out []float32
	for _, p := range points {
		for _, v := range []float32{float32(p), -float32(p)} {
			b := math.Float32bits(v)
			for d := -40; d <= 40; d++ {
				out = append(out, math.Float32frombits(uint32(int64(b)+int64(d))))
			}
		}
	}
	return out
}

func edges64(points ...float64) []float64 {
	var out []float64
	for _, p := range points {
		for _, v := range []float64{p, -p} {
			b := math.Float64bits(v)
			for d := -8; d <= 8; d++ {
				out = append(out, math.Float64frombits(uint64(int64(b)+int64(d))))
			}
		}
	}
	return out
}

// mathEdges are the points where a function's formula or its result changes: the clamps and the
// overflow and underflow thresholds, the subnormal boundary, 1, and where a table interval begins.
func mathEdges() []float64 {
	e := []float64{0x1p-149, 0x1p-126, 0x1p-24, 0x1p-12, 0.25, 0.5, 1, 2, 10, 19.0615, 20, 88.7228, 89, 103.97,
		104, 87.3365, 709.782, 710, 745.133, 746, 708.396, 1e30, math.MaxFloat32, math.Ln2 / 16, math.Ln2 / 32,
		0x1p-1074, 0x1p-1022, 0.75, 1.5, 0.984375, 1.03125, 9.0109, 0.0546875}
	for i := range 32 { // tanh's float32 intervals
		lo, _ := tanh32Interval(i)
		e = append(e, float64(lo))
	}
	return e
}

// sample32 returns float32s of every magnitude: random bit patterns, random
// values where each function's result is finite and not trivial, and the
// edges.
func sample32(n int) []float32 {
	r := rand.New(rand.NewPCG(5, 6))
	x := edges32(mathEdges()...)
	for range n {
		x = append(x, math.Float32frombits(r.Uint32()), float32(r.NormFloat64()*30), float32(r.Float64()*20-10),
			float32(math.Exp(r.Float64()*10-5)), float32(r.Float64()*200-100))
	}
	return x
}

// checkAgainst32 checks the float32 results y of f at x against the float64 reference: it reports the
// largest error in units of the last place, and fails the test where it passes 1 or where NaN and
// infinity do not match.
func checkAgainst32(t *testing.T, f mathFunc, x, y []float32) float64 {
	t.Helper()
	worst := 0.0
	for i, v := range x {
		want := f.ref(float64(v))
		got := y[i]
		switch {
		case math.IsNaN(want) || math.IsNaN(float64(got)):
			if math.IsNaN(want) != math.IsNaN(float64(got)) {
				t.Errorf("%s(float32(%v)) = %v, want %v", f.name, v, got, want)
			}
			continue
		case math.IsInf(want, 0) && !f.defined(float64(v)):
			if float64(got) != want {
				t.Errorf("%s(float32(%v)) = %v, want %v", f.name, v, got, want)
			}
			continue
		}
		if e := ulps32f(got, want); e > worst {
			worst = e
			if e > 1 {
				t.Errorf("%s(float32(%g) = %#x) = %g, %.3f units off %.9g", f.name, v, math.Float32bits(v), got, e, want)
			}
		}
	}
	return worst
}

// samePaths computes f of x on every path and fails the test where two paths differ in a bit; it
// returns the pure-Go path's results.
func samePaths[T Float](t *testing.T, name string, f func(dst, x []T), x []T) []T {
	t.Helper()
	saved := active
	defer func() { active = saved }()
	var first []T
	for _, p := range slices.Backward(paths) {
		active = p
		y := make([]T, len(x))
		f(y, x)
		if first == nil {
			first = y
			continue
		}
		for i := range y {
			if !sameBits(y[i:i+1], first[i:i+1]) {
				t.Errorf("%s(%v): path %s gives %v, go %v", name, x[i], p, y[i], first[i])
				break
			}
		}
	}
	return first
}

func TestMathFloat32Accuracy(t *testing.T) {
	x := sample32(20000)
	for _, f := range mathFuncs {
		y := samePaths(t, f.name, f.f32, x)
		worst := checkAgainst32(t, f, x, y)
		t.Logf("%s float32: at most %.3f units in the last place on %d inputs", f.name, worst, len(x))
	}
}

// sample64 is sample32 for float64, fewer: each takes math/big's exact value.
func sample64(n int) []float64 {
	r := rand.New(rand.NewPCG(7, 8))
	x := edges64(mathEdges()...)
	for range n {
		x = append(x, math.Float64frombits(r.Uint64()), r.NormFloat64()*30, r.Float64()*20-10, math.Exp(r.Float64()*10-5),
			r.NormFloat64()*0.05, r.Float64()*1500-750) // the last: every result of Exp, large arguments too
	}
	return x
}

func checkAgainst64(t *testing.T, f mathFunc, x, y []float64) float64 {
	t.Helper()
	worst := 0.0
	for i, v := range x {
		got := y[i]
		if !f.defined(v) || math.IsNaN(v) {
			continue // TestMathSpecialValues
		}
		var want *big.Float
		switch {
		case f.name == "Exp" && v > 710:
			want = bigOf(math.Inf(1)) // beyond float64
		case f.name == "Exp" && v < -746:
			want = newBig()
		case f.name == "Tanh" && math.Abs(v) > 30:
			want = bigOf(math.Copysign(1, v))
		default:
			want = f.exact(bigOf(v))
		}
		if want.IsInf() {
			if !math.IsInf(got, 1) {
				t.Errorf("%s(%v) = %v, want +Inf", f.name, v, got)
			}
			continue
		}
		if e := ulps64(got, want); e > worst {
			worst = e
			if e > 1 {
				w, _ := want.Float64()
				t.Errorf("%s(%v = %#x) = %v, %.3f units off %v", f.name, v, math.Float64bits(v), got, e, w)
			}
		}
	}
	return worst
}

func TestMathFloat64Accuracy(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 100
	}
	x := sample64(n)
	for _, f := range mathFuncs {
		if f.name == "Log" { // the logarithm of the positive ones, and of their reciprocals
			for _, v := range slices.Clone(x) {
				x = append(x, math.Abs(v), 1/math.Abs(v))
			}
		}
		y := samePaths(t, f.name, f.f64, x)
		worst := checkAgainst64(t, f, x, y)
		t.Logf("%s float64: at most %.3f units in the last place on %d inputs", f.name, worst, len(x))
	}
}

// TestMathExhaustive32 checks Exp, Log and Tanh on every float32, every
// path giving the same bits, within a unit of the exact value; opt-in.
func TestMathExhaustive32(t *testing.T) {
	if !*exhaustive {
		t.Skip("every float32 with -vec.exhaustive or GODLPACK_VEC_EXHAUSTIVE=1")
	}
	const chunk = 1 << 20
	for _, f := range mathFuncs {
		var mu sync.Mutex
		worst := map[string]float64{}
		var wg sync.WaitGroup
		next := make(chan uint64)
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				x := make([]float32, chunk)
				for start := range next {
					n := 0
					for b := start; b < start+chunk*uint64(*stride) && b < 1<<32; b += uint64(*stride) {
						x[n] = math.Float32frombits(uint32(b))
						n++
					}
					y := samePaths(t, f.name, f.f32, x[:n])
					w := checkAgainst32(t, f, x[:n], y)
					mu.Lock()
					worst[f.name] = max(worst[f.name], w)
					mu.Unlock()
				}
			}()
		}
		for start := uint64(0); start < 1<<32; start += chunk * uint64(*stride) {
			next <- start
		}
		close(next)
		wg.Wait()
		t.Logf("%s float32: at most %.3f units in the last place on every float32 (stride %d), paths %s",
			f.name, worst[f.name], *stride, pathNames())
	}
}

func pathNames() string {
	var s []string
	for _, p := range paths {
		s = append(s, p.String())
	}
	return fmt.Sprint(s)
}

func TestMathLengthsAndAliasing(t *testing.T) {
	eachPath(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(9, 10))
		// The vector paths' heads, tails and whole vectors, and more than one step.
		for _, n := range []int{0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 257, mathStep + 5} {
			for _, off := range offsets {
				x32 := randomFloats[float32](r, n+off)[off:]
				x64 := randomFloats[float64](r, n+off)[off:]
				for _, f := range mathFuncs {
					checkMap(t, f.name, f.f32, x32, mathGo32(f.name))
					checkMap(t, f.name, f.f64, x64, mathGo64(f.name))
				}
			}
		}
	})
}

func mathGo32(name string) func(float32) float32 {
	return map[string]func(float32) float32{"Exp": exp32Go, "Log": log32Go, "Tanh": tanh32Go}[name]
}

func mathGo64(name string) func(float64) float64 {
	return map[string]func(float64) float64{"Exp": exp64Go, "Log": log64Go, "Tanh": tanh64Go}[name]
}

// checkMap checks f on x, into a new slice and in place, against one element at a time in plain Go.
func checkMap[T Float](t *testing.T, name string, f func(dst, x []T), x []T, one func(T) T) {
	t.Helper()
	want := make([]T, len(x))
	for i, v := range x {
		want[i] = one(v)
	}
	dst := make([]T, len(x))
	f(dst, x)
	if !sameBits(dst, want) {
		t.Errorf("%s of %d %T: not the bits of one element at a time", name, len(x), x[0])
	}
	in := slices.Clone(x)
	f(in, in)
	if !sameBits(in, want) {
		t.Errorf("%s of %d %T in place: not the bits of one element at a time", name, len(x), x[0])
	}
}

func TestMathPanics(t *testing.T) {
	x := make([]float64, 10)
	for _, c := range []struct {
		name string
		call func()
		want string
	}{
		{"lengths", func() { Exp(x[:3], x[:4]) }, "vec.Exp: slices of lengths 3 and 4"},
		{"overlap", func() { Log(x[1:5], x[:4]) }, "vec.Log: dst and x overlap, 8 bytes apart"},
		{"overlap below", func() { Tanh(x[:4], x[2:6]) }, "vec.Tanh: dst and x overlap, -16 bytes apart"},
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
	Exp(x[:0], x[:0])
	Exp(x[5:], x[:5]) // apart: no panic
}

func TestMathNoAllocations(t *testing.T) {
	x32, x64 := make([]float32, 1000), make([]float64, 1000)
	eachPath(t, func(t *testing.T) {
		if n := testing.AllocsPerRun(10, func() {
			Exp(x32, x32)
			Log(x64, x64)
			Tanh(x32[:7], x32[10:17])
		}); n != 0 {
			t.Errorf("%v allocations a call", n)
		}
	})
}

// BenchmarkMath times each function on each path, 16k (in the core's
// cache) and 1M elements of float32 and float64, in place.
func BenchmarkMath(b *testing.B) {
	saved := active
	defer func() { active = saved }()
	for _, f := range mathFuncs {
		for _, p := range paths {
			active = p
			for _, n := range []int{1 << 14, 1 << 20} {
				benchMath(b, fmt.Sprintf("%s/float32/%s/%d", f.name, p, n), f.f32, n)
				benchMath(b, fmt.Sprintf("%s/float64/%s/%d", f.name, p, n), f.f64, n)
			}
		}
	}
}

func benchMath[T Float](b *testing.B, name string, f func(dst, x []T), n int) {
	r := rand.New(rand.NewPCG(11, 12))
	x := make([]T, n)
	for i := range x {
		x[i] = T(r.Float64()*10 + 0.01) // within every function's domain
	}
	dst := make([]T, n)
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(n) * int64(unsafe.Sizeof(T(0))))
		for b.Loop() {
			f(dst, x)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
	})
}
