package ops_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/ops"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/scalar"
	"github.com/godlpack/godlpack/vec"
)

// A layout of a backing buffer: shape, strides in elements (nil: C order)
// and the offset of element (0, ..., 0) in elements.
type layout struct {
	name    string
	shape   []int64
	strides []int64
	offset  int64
	span    int64 // the elements of the buffer it needs
}

// layouts of r rows of c elements: every path of the kernels (one span of
// memory in any order of strides, rows, element by element), with gaps,
// negative strides and repeats.
func layouts(r, c int64) []layout {
	return []layout{
		{"0-d", []int64{}, []int64{}, 3, 4},
		{"empty", []int64{0, c}, nil, 0, 1},
		{"contiguous", []int64{r * c}, nil, 0, r * c},
		{"C-order", []int64{r, c}, nil, 0, r * c},
		{"Fortran order", []int64{r, c}, []int64{1, r}, 0, r * c},
		{"transposed 3-d", []int64{2, r, c / 2}, []int64{1, c, 2}, 0, r * c},
		{"rows with gaps", []int64{r, c}, []int64{c + 3, 1}, 0, r * (c + 3)},
		{"rows reversed", []int64{r, c}, []int64{-(c + 3), 1}, (r - 1) * (c + 3), r * (c + 3)},
		{"short rows", []int64{r, 5}, []int64{c, 1}, 0, r * c},
		{"every other", []int64{r * c / 2}, []int64{2}, 0, r * c},
		{"reversed", []int64{r * c}, []int64{-1}, r*c - 1, r * c},
		{"columns", []int64{c, r}, []int64{1, c + 1}, 0, r * (c + 1)},
		{"broadcast rows", []int64{r, c}, []int64{0, 1}, 0, c},
	}
}

// view makes a view of l over mem (pinned and exported as a producer would), released at the end of the test.
func view[T producer.Pinnable](t *testing.T, mem []T, l layout, dt dlpack.DataType) *consumer.View {
	t.Helper()
	x := tensor(t, mem, producer.Layout{Shape: l.shape, Strides: l.strides, DType: dt,
		Offset: l.offset * int64(unsafe.Sizeof(mem[0]))}, dlpack.Current)
	t.Cleanup(x.Release)
	return &x.View
}

// walked returns v's elements in C order and their addresses.
func walked[T any](v *consumer.View) ([]T, []*T) {
	var values []T
	var at []*T
	consumer.Walk(v, func(p *T) bool {
		values = append(values, *p)
		at = append(at, p)
		return true
	})
	return values, at
}

type number interface {
	producer.Pinnable
	vec.Number
}

func random[T number](r *rand.Rand, n int64) []T {
	mem := make([]T, n)
	for i := range mem {
		if one := T(1); one/2 != 0 {
			mem[i] = T(r.NormFloat64() * 100)
		} else {
			mem[i] = T(r.Uint64())
		}
	}
	return mem
}

// want is the scalar a reduction of values should give, by the rules of Sum.
func want[T vec.Number](x float64, integer uint64, dt dlpack.DataType) scalar.Scalar {
	switch dt.Code {
	case dlpack.Int:
		return scalar.Scalar{Kind: scalar.Int, Int: int64(integer)}
	case dlpack.UInt:
		return scalar.Scalar{Kind: scalar.Uint, Uint: integer}
	}
	return scalar.Scalar{Kind: scalar.Float, Real: x}
}

// same reports whether got is want, a float within 1e-12 of the magnitude mag.
func same(got, want scalar.Scalar, mag float64) bool {
	if want.Kind == scalar.Float {
		return got.Kind == scalar.Float && (math.Abs(got.Real-want.Real) <= 1e-12*mag ||
			math.IsNaN(got.Real) && math.IsNaN(want.Real))
	}
	return got == want
}

func testLayouts[T number](t *testing.T, dt dlpack.DataType, r, c int64, only ...string) {
	rng := rand.New(rand.NewPCG(uint64(r), uint64(c)))
	for _, l := range layouts(r, c) {
		if len(only) > 0 && !slices.Contains(only, l.name) {
			continue
		}
		t.Run(l.name, func(t *testing.T) {
			mem := random[T](rng, l.span)
			x := view(t, mem, l, dt)
			values, at := walked[T](x)

			// Sum, and Dot of x with itself and with a C-ordered copy of its elements.
			var s, d, mag float64
			var si, di uint64
			for _, v := range values {
				s, si, mag = s+float64(v), si+uint64(v), mag+math.Abs(float64(v))*max(1, math.Abs(float64(v)))
				d, di = d+float64(v)*float64(v), di+uint64(v)*uint64(v)
			}
			if got, err := ops.Sum(x); err != nil || !same(got, want[T](s, si, dt), mag) {
				t.Errorf("Sum = %+v, %v; want %+v", got, err, want[T](s, si, dt))
			}
			dense := view(t, slices.Clone(values), layout{shape: l.shape, strides: nil}, dt)
			for name, y := range map[string]*consumer.View{"itself": x, "a C-ordered copy": dense} {
				if got, err := ops.Dot(x, y); err != nil || !same(got, want[T](d, di, dt), mag) {
					t.Errorf("Dot with %s = %+v, %v; want %+v", name, got, err, want[T](d, di, dt))
				}
			}

			// Min and Max.
			gotMin, errMin := ops.Min(x)
			gotMax, errMax := ops.Max(x)
			if len(values) == 0 {
				if !errorsIs(errMin, ops.ErrEmpty) || !errorsIs(errMax, ops.ErrEmpty) {
					t.Errorf("Min and Max of nothing: %v, %v; want ErrEmpty", errMin, errMax)
				}
			} else {
				lo, hi := slices.Min(values), slices.Max(values)
				if !same(gotMin, want[T](float64(lo), uint64(lo), dt), 0) || !same(gotMax, want[T](float64(hi), uint64(hi), dt), 0) {
					t.Errorf("Min, Max = %+v, %+v (%v, %v); want %v, %v", gotMin, gotMax, errMin, errMax, lo, hi)
				}
			}

			// Scale in place: every element once, nothing else (a broadcast output is refused).
			expect := slices.Clone(mem)
			factor := T(3)
			inView := make([]bool, len(mem))
			for _, p := range at {
				i := (uintptr(unsafe.Pointer(p)) - uintptr(unsafe.Pointer(&mem[0]))) / unsafe.Sizeof(factor)
				expect[i] *= factor
				inView[i] = true
			}
			err := ops.Scale(x, scalar.Scalar{Kind: scalar.Int, Int: 3})
			if l.name == "broadcast rows" {
				if !errorsIs(err, ops.ErrOverlap) {
					t.Errorf("Scale of a broadcast output: %v, want ErrOverlap", err)
				}
			} else if err != nil || !slices.Equal(mem, expect) {
				t.Errorf("Scale by 3: %v; memory %v, want %v", err, head(mem), head(expect))
			}

			// Copy into x's layout from a C-ordered tensor, and back out of it.
			if l.name == "broadcast rows" {
				return
			}
			src := random[T](rng, int64(len(values)))
			from := view(t, src, layout{shape: l.shape, strides: nil}, dt)
			before := slices.Clone(mem)
			if err := ops.Copy(x, from); err != nil {
				t.Fatalf("Copy: %v", err)
			}
			if got, _ := walked[T](x); !slices.Equal(got, src) {
				t.Errorf("Copy into %s: %v, want %v", l.name, head(got), head(src))
			}
			for i := range mem { // the gaps keep their values
				if !inView[i] && mem[i] != before[i] {
					t.Fatalf("Copy wrote element %d outside the view", i)
				}
			}
			back := make([]T, len(values))
			if err := ops.Copy(view(t, back, layout{shape: l.shape, strides: nil}, dt), x); err != nil || !slices.Equal(back, src) {
				t.Errorf("Copy out of %s: %v, %v; want %v", l.name, err, head(back), head(src))
			}
		})
	}
}

func head[T any](s []T) []T { return s[:min(len(s), 12)] }

func errorsIs(err, target error) bool {
	for err != nil {
		if err == target {
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}

// TestLayouts runs every kernel on every dtype and layout against a
// reference made element by element, on one thread.
func TestLayouts(t *testing.T) {
	checkNoLeak(t)
	defer vec.SetThreads(vec.SetThreads(1))
	const r, c = 7, 40
	t.Run("int8", func(t *testing.T) { testLayouts[int8](t, dlpack.Int8, r, c) })
	t.Run("int16", func(t *testing.T) { testLayouts[int16](t, dlpack.Int16, r, c) })
	t.Run("int32", func(t *testing.T) { testLayouts[int32](t, dlpack.Int32, r, c) })
	t.Run("int64", func(t *testing.T) { testLayouts[int64](t, dlpack.Int64, r, c) })
	t.Run("uint8", func(t *testing.T) { testLayouts[uint8](t, dlpack.Uint8, r, c) })
	t.Run("uint16", func(t *testing.T) { testLayouts[uint16](t, dlpack.Uint16, r, c) })
	t.Run("uint32", func(t *testing.T) { testLayouts[uint32](t, dlpack.Uint32, r, c) })
	t.Run("uint64", func(t *testing.T) { testLayouts[uint64](t, dlpack.Uint64, r, c) })
	t.Run("float32", func(t *testing.T) { testLayouts[float32](t, dlpack.Float32, r, c) })
	t.Run("float64", func(t *testing.T) { testLayouts[float64](t, dlpack.Float64, r, c) })
}

// TestLayoutsSplit runs the kernels on tensors large enough to be split
// over two goroutines or more (vec.ParallelGrain bytes each at least):
// every kernel's parallel branch, on a 4-byte and an 8-byte dtype of each
// kind.
func TestLayoutsSplit(t *testing.T) {
	checkNoLeak(t)
	defer vec.SetThreads(vec.SetThreads(4))
	r, c := int64(2*vec.ParallelGrain/4/4096), int64(4096) // 2 grains of 4-byte elements
	split := []string{"contiguous", "Fortran order", "rows with gaps", "transposed 3-d"}
	t.Run("int32", func(t *testing.T) { testLayouts[int32](t, dlpack.Int32, r, c, split...) })
	t.Run("uint64", func(t *testing.T) { testLayouts[uint64](t, dlpack.Uint64, r, c, split...) })
	t.Run("float32", func(t *testing.T) { testLayouts[float32](t, dlpack.Float32, r, c, split...) })
	t.Run("float64", func(t *testing.T) { testLayouts[float64](t, dlpack.Float64, r, c, split...) })
}
