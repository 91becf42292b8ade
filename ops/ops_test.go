package ops_test

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/dlpack"
	"github.com/godlpack/godlpack/minifloat"
	"github.com/godlpack/godlpack/ops"
	"github.com/godlpack/godlpack/producer"
	"github.com/godlpack/godlpack/scalar"
	"github.com/godlpack/godlpack/testing/ownertest"
	"github.com/godlpack/godlpack/vec"
)

// tensor imports a layout of s's memory, as any producer's would arrive.
func tensor[T producer.Pinnable](t testing.TB, s []T, l producer.Layout, version dlpack.Version) *consumer.Tensor {
	t.Helper()
	b, err := producer.Pin(s)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	m, err := b.Export(l, version)
	if err != nil {
		t.Fatal(err)
	}
	x, err := consumer.Import(m)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// checkNoLeak fails the test if an owner made during it is still alive.
func checkNoLeak(t *testing.T) {
	before := ownertest.Live()
	t.Cleanup(func() {
		if after := ownertest.Live(); after != before {
			t.Errorf("%d owners alive after the test, %d before", after, before)
		}
	})
}

func TestSum(t *testing.T) {
	checkNoLeak(t)
	tests := []struct {
		name string
		x    func() *consumer.Tensor
		want scalar.Scalar
	}{
		{"int8 wraps into int64", func() *consumer.Tensor {
			return tensor(t, []int8{100, 100, -1}, producer.Layout{Shape: []int64{3}, DType: dlpack.Int8}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Int, Int: 199}},
		{"int64 strided", func() *consumer.Tensor {
			return tensor(t, []int64{1, 2, 3, 4, 5, 6}, producer.Layout{Shape: []int64{3}, Strides: []int64{2}, DType: dlpack.Int64}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Int, Int: 9}},
		{"uint64 wraps", func() *consumer.Tensor {
			return tensor(t, []uint64{1 << 63, 1<<63 + 5}, producer.Layout{Shape: []int64{2}, DType: dlpack.Uint64}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Uint, Uint: 5}},
		{"bool counts", func() *consumer.Tensor {
			return tensor(t, []bool{true, false, true}, producer.Layout{Shape: []int64{3}, DType: dlpack.Bool}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Int, Int: 2}},
		{"float32 transposed", func() *consumer.Tensor {
			return tensor(t, []float32{1, 2, 3, 4}, producer.Layout{Shape: []int64{2, 2}, Strides: []int64{1, 2}, DType: dlpack.Float32}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Float, Real: 10}},
		{"float16", func() *consumer.Tensor {
			return tensor(t, []uint16{minifloat.EncodeFloat16(1.5), minifloat.EncodeFloat16(-0.25)}, producer.Layout{Shape: []int64{2}, DType: dlpack.Float16}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Float, Real: 1.25}},
		{"bfloat16 reversed", func() *consumer.Tensor {
			return tensor(t, []uint16{minifloat.EncodeBfloat16(3), minifloat.EncodeBfloat16(4)}, producer.Layout{Shape: []int64{2}, Strides: []int64{-1}, Offset: 2, DType: dlpack.Bfloat16}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Float, Real: 7}},
		{"broadcast", func() *consumer.Tensor {
			return tensor(t, []float64{2.5}, producer.Layout{Shape: []int64{4}, Strides: []int64{0}, DType: dlpack.Float64}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Float, Real: 10}},
		{"empty", func() *consumer.Tensor {
			return tensor(t, []float64{1}, producer.Layout{Shape: []int64{0, 3}, DType: dlpack.Float64}, dlpack.Current)
		}, scalar.Scalar{Kind: scalar.Float, Real: 0}},
	}
	for _, tt := range tests {
		x := tt.x()
		got, err := ops.Sum(&x.View)
		x.Release()
		if err != nil || got != tt.want {
			t.Errorf("%s: Sum = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
	c := tensor(t, []complex64{1}, producer.Layout{Shape: []int64{1}, DType: dlpack.Complex64}, dlpack.Current)
	defer c.Release()
	if _, err := ops.Sum(&c.View); !errors.Is(err, consumer.ErrDType) {
		t.Errorf("Sum of complex64: %v, want ErrDType", err)
	}
	onDevice := c.View
	onDevice.Device = dlpack.Device{Type: dlpack.CUDA}
	if _, err := ops.Sum(&onDevice); !errors.Is(err, consumer.ErrDevice) {
		t.Errorf("Sum of a CUDA view: %v, want ErrDevice", err)
	}
}

func TestScale(t *testing.T) {
	checkNoLeak(t)
	ints := []int8{100, -3, 7, 9}
	x := tensor(t, ints, producer.Layout{Shape: []int64{2}, Strides: []int64{2}, DType: dlpack.Int8}, dlpack.Current)
	if err := ops.Scale(&x.View, scalar.Scalar{Kind: scalar.Int, Int: 2}); err != nil {
		t.Fatal(err)
	}
	x.Release()
	if want := []int8{-56, -3, 14, 9}; !slices.Equal(ints, want) { // wraps like NumPy; the gaps stay
		t.Errorf("int8 scaled by 2: %v, want %v", ints, want)
	}
	floats := []float32{1, 2}
	y := tensor(t, floats, producer.Layout{Shape: []int64{2}, DType: dlpack.Float32}, dlpack.Current)
	if err := ops.Scale(&y.View, scalar.Scalar{Kind: scalar.Float, Real: 0.5}); err != nil {
		t.Fatal(err)
	}
	y.Release()
	if !slices.Equal(floats, []float32{0.5, 1}) {
		t.Errorf("float32 scaled by 0.5: %v", floats)
	}
	halves := []uint16{minifloat.EncodeFloat16(1.5), minifloat.EncodeFloat16(65504)}
	h := tensor(t, halves, producer.Layout{Shape: []int64{2}, DType: dlpack.Float16}, dlpack.Current)
	if err := ops.Scale(&h.View, scalar.Scalar{Kind: scalar.Int, Int: 2}); err != nil {
		t.Fatal(err)
	}
	h.Release()
	if got := []float64{minifloat.DecodeFloat16(halves[0]), minifloat.DecodeFloat16(halves[1])}; got[0] != 3 || !math.IsInf(got[1], 1) {
		t.Errorf("float16 scaled by 2: %v, want [3 +Inf]", got)
	}
	u := []uint64{3}
	z := tensor(t, u, producer.Layout{Shape: []int64{1}, DType: dlpack.Uint64}, dlpack.Current)
	if err := ops.Scale(&z.View, scalar.Scalar{Kind: scalar.Uint, Uint: 1 << 63}); err != nil {
		t.Fatal(err)
	}
	z.Release()
	if u[0] != 1<<63 {
		t.Errorf("uint64 3 scaled by 2**63: %d, want 2**63 (wrapped)", u[0])
	}

	refusals := []struct {
		name   string
		s      []int16
		l      producer.Layout
		v      dlpack.Version
		factor scalar.Scalar
		is     error
	}{
		{"float factor for int", []int16{1}, producer.Layout{Shape: []int64{1}, DType: dlpack.Int16}, dlpack.Current, scalar.Scalar{Kind: scalar.Float, Real: 0.5}, consumer.ErrDType},
		{"factor beyond int16", []int16{1}, producer.Layout{Shape: []int64{1}, DType: dlpack.Int16}, dlpack.Current, scalar.Scalar{Kind: scalar.Int, Int: 1 << 15}, scalar.ErrRange},
		{"negative factor for uint16", []int16{1}, producer.Layout{Shape: []int64{1}, DType: dlpack.Uint16}, dlpack.Current, scalar.Scalar{Kind: scalar.Int, Int: -1}, scalar.ErrRange},
		{"read-only", []int16{1}, producer.Layout{Shape: []int64{1}, DType: dlpack.Int16, Flags: dlpack.ReadOnly}, dlpack.Current, scalar.Scalar{Kind: scalar.Int, Int: 2}, consumer.ErrReadOnly},
		{"legacy", []int16{1}, producer.Layout{Shape: []int64{1}, DType: dlpack.Int16}, dlpack.Version{}, scalar.Scalar{Kind: scalar.Int, Int: 2}, consumer.ErrReadOnly},
		{"bool", []int16{1}, producer.Layout{Shape: []int64{2}, DType: dlpack.Bool}, dlpack.Current, scalar.Scalar{Kind: scalar.Int, Int: 2}, consumer.ErrDType},
		{"broadcast output", []int16{3}, producer.Layout{Shape: []int64{4}, Strides: []int64{0}, DType: dlpack.Int16}, dlpack.Current, scalar.Scalar{Kind: scalar.Int, Int: 2}, ops.ErrOverlap},
		{"folded output", []int16{3, 4, 5}, producer.Layout{Shape: []int64{2, 2}, Strides: []int64{1, 1}, DType: dlpack.Int16}, dlpack.Current, scalar.Scalar{Kind: scalar.Int, Int: 2}, ops.ErrOverlap},
	}
	// A copy is the holder's own (capsule.Import decides whether a producer's copy may be written): written.
	copied := []int16{3}
	copiedX := tensor(t, copied, producer.Layout{Shape: []int64{1}, DType: dlpack.Int16, Flags: dlpack.IsCopied}, dlpack.Current)
	if err := ops.Scale(&copiedX.View, scalar.Scalar{Kind: scalar.Int, Int: 2}); err != nil || copied[0] != 6 {
		t.Errorf("Scale of an IS_COPIED tensor: %v, %d; want nil, 6", err, copied[0])
	}
	copiedX.Release()

	for _, tt := range refusals {
		before := tt.s[0]
		x := tensor(t, tt.s, tt.l, tt.v)
		err := ops.Scale(&x.View, tt.factor)
		x.Release()
		if !errors.Is(err, tt.is) {
			t.Errorf("%s: Scale: %v, want %v", tt.name, err, tt.is)
		}
		if tt.s[0] != before {
			t.Errorf("%s: a refused Scale wrote %d over %d", tt.name, tt.s[0], before)
		}
	}
	// Strided, through the float16 path.
	halfView := []uint16{minifloat.EncodeFloat16(1.5), 7, minifloat.EncodeFloat16(-2)}
	hv := tensor(t, halfView, producer.Layout{Shape: []int64{2}, Strides: []int64{2}, DType: dlpack.Float16}, dlpack.Current)
	err := ops.Scale(&hv.View, scalar.Scalar{Kind: scalar.Float, Real: 2})
	hv.Release()
	if got := []float64{minifloat.DecodeFloat16(halfView[0]), minifloat.DecodeFloat16(halfView[2])}; err != nil ||
		got[0] != 3 || got[1] != -4 || halfView[1] != 7 {
		t.Errorf("Scale of a strided float16 view by 2: %v, %v and the gap %d; want [3 -4] and 7", err, got, halfView[1])
	}
	onDevice := tensor(t, []int16{1}, producer.Layout{Shape: []int64{1}, DType: dlpack.Int16}, dlpack.Current)
	v := onDevice.View
	v.Device = dlpack.Device{Type: dlpack.CUDA}
	if err := ops.Scale(&v, scalar.Scalar{Kind: scalar.Int, Int: 2}); !errors.Is(err, consumer.ErrDevice) {
		t.Errorf("Scale of a CUDA view: %v, want ErrDevice", err)
	}
	onDevice.Release()
}

func TestCopy(t *testing.T) {
	checkNoLeak(t)
	dstMem, srcMem := make([]int32, 6), []int32{1, 2, 3, 4, 5, 6}
	dst := tensor(t, dstMem, producer.Layout{Shape: []int64{2, 3}, Strides: []int64{1, 2}, DType: dlpack.Int32}, dlpack.Current)
	src := tensor(t, srcMem, producer.Layout{Shape: []int64{2, 3}, DType: dlpack.Int32}, dlpack.Current)
	if err := ops.Copy(&dst.View, &src.View); err != nil {
		t.Fatal(err)
	}
	dst.Release()
	src.Release()
	if want := []int32{1, 4, 2, 5, 3, 6}; !slices.Equal(dstMem, want) {
		t.Errorf("transposed copy: %v, want %v", dstMem, want)
	}
	refusals := []struct {
		name     string
		dst, src producer.Layout
		is       error
	}{
		{"shapes", producer.Layout{Shape: []int64{2}, DType: dlpack.Int32}, producer.Layout{Shape: []int64{3}, DType: dlpack.Int32}, consumer.ErrLayout},
		{"dtypes", producer.Layout{Shape: []int64{2}, DType: dlpack.Int32}, producer.Layout{Shape: []int64{2}, DType: dlpack.Float32}, consumer.ErrDType},
		{"read-only", producer.Layout{Shape: []int64{2}, DType: dlpack.Int32, Flags: dlpack.ReadOnly}, producer.Layout{Shape: []int64{2}, DType: dlpack.Int32}, consumer.ErrReadOnly},
		{"broadcast output", producer.Layout{Shape: []int64{3}, Strides: []int64{0}, DType: dlpack.Int32}, producer.Layout{Shape: []int64{3}, DType: dlpack.Int32}, ops.ErrOverlap},
	}
	for _, tt := range refusals {
		mem := []int32{7, 7, 7}
		d := tensor(t, mem, tt.dst, dlpack.Current)
		s := tensor(t, []int32{1, 2, 3}, tt.src, dlpack.Current)
		err := ops.Copy(&d.View, &s.View)
		d.Release()
		s.Release()
		if !errors.Is(err, tt.is) {
			t.Errorf("%s: Copy: %v, want %v", tt.name, err, tt.is)
		}
		if !slices.Equal(mem, []int32{7, 7, 7}) {
			t.Errorf("%s: a refused Copy wrote %v", tt.name, mem)
		}
	}
}

func TestWork(t *testing.T) {
	checkNoLeak(t)
	x := tensor(t, []float64{1}, producer.Layout{Shape: []int64{1 << 20}, Strides: []int64{0}, DType: dlpack.Float64}, dlpack.Current)
	defer x.Release()
	if got := ops.Work(&x.View); got != 8<<20 {
		t.Errorf("Work of 2**20 broadcast float64 = %d, want %d: every element counts", got, 8<<20)
	}
}

// TestKernelsAllocateNothing holds the kernels on one thread to no Go heap
// allocation: a Python call of godlpack.ops makes none.
func TestKernelsAllocateNothing(t *testing.T) {
	checkNoLeak(t)
	defer vec.SetThreads(vec.SetThreads(1))
	tests := []struct {
		name   string
		x      *consumer.Tensor
		factor scalar.Scalar
	}{
		{"float32", tensor(t, []float32{1, 2, 3, 4}, producer.Layout{Shape: []int64{4}, DType: dlpack.Float32}, dlpack.Current),
			scalar.Scalar{Kind: scalar.Float, Real: 1}},
		{"float64 large", tensor(t, make([]float64, 1<<20), producer.Layout{Shape: []int64{1 << 20}, DType: dlpack.Float64}, dlpack.Current),
			scalar.Scalar{Kind: scalar.Float, Real: 1}},
		{"int8 rows", tensor(t, make([]int8, 64*40), producer.Layout{Shape: []int64{64, 20}, Strides: []int64{40, 1}, DType: dlpack.Int8}, dlpack.Current),
			scalar.Scalar{Kind: scalar.Int, Int: 1}},
		{"uint64 strided", tensor(t, make([]uint64, 64), producer.Layout{Shape: []int64{32}, Strides: []int64{2}, DType: dlpack.Uint64}, dlpack.Current),
			scalar.Scalar{Kind: scalar.Int, Int: 1}},
		{"float32 transposed", tensor(t, make([]float32, 64*64), producer.Layout{Shape: []int64{64, 64}, Strides: []int64{1, 64}, DType: dlpack.Float32}, dlpack.Current),
			scalar.Scalar{Kind: scalar.Float, Real: 1}},
	}
	for _, tt := range tests {
		defer tt.x.Release()
		v := &tt.x.View
		n := testing.AllocsPerRun(20, func() {
			_, err1 := ops.Sum(v)
			_, err2 := ops.Dot(v, v)
			_, err3 := ops.Min(v)
			_, err4 := ops.Max(v)
			err5 := ops.Scale(v, tt.factor)
			if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
				t.Fatal(err)
			}
		})
		if n != 0 {
			t.Errorf("%s: the kernels allocate %v times a round, want none", tt.name, n)
		}
	}
}

func benchmarkTensor(b *testing.B, strided bool) *consumer.Tensor {
	mem := make([]float32, 1<<20)
	for i := range mem {
		mem[i] = 1
	}
	l := producer.Layout{Shape: []int64{1 << 19}, DType: dlpack.Float32}
	if strided {
		l.Strides = []int64{2}
	}
	b.SetBytes(4 << 19)
	return tensor(b, mem, l, dlpack.Current)
}

// benchmarkKernel runs kernel on 2**19 float32 elements, contiguous and
// with a stride of 2; dst is a contiguous tensor of the same shape.
func benchmarkKernel(b *testing.B, kernel func(x, dst *consumer.View) error) {
	for _, strided := range []bool{false, true} {
		b.Run(map[bool]string{false: "contiguous", true: "strided"}[strided], func(b *testing.B) {
			x, dst := benchmarkTensor(b, strided), benchmarkTensor(b, false)
			defer x.Release()
			defer dst.Release()
			for b.Loop() {
				if err := kernel(&x.View, &dst.View); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSum(b *testing.B) {
	benchmarkKernel(b, func(x, _ *consumer.View) error { _, err := ops.Sum(x); return err })
}

func BenchmarkScale(b *testing.B) {
	benchmarkKernel(b, func(x, _ *consumer.View) error {
		return ops.Scale(x, scalar.Scalar{Kind: scalar.Float, Real: 1})
	})
}

func BenchmarkCopy(b *testing.B) {
	benchmarkKernel(b, func(src, dst *consumer.View) error { return ops.Copy(dst, src) })
}
