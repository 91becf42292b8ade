package minifloat

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/godlpack/godlpack/dlpack"
)

// sameFloat reports whether a and b are the same value, telling -0 from +0
// and treating every NaN as equal.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

// The values below come from the format definitions (OCP FP8 and MX, and
// the fnuz formats of Graphcore/AMD), not from this package.
var minifloatRows = []struct {
	name string
	code dlpack.Code
	b    uint8
	v    float64
}{
	{"e4m3fn one", dlpack.Float8E4M3FN, 0x38, 1},
	{"e4m3fn max", dlpack.Float8E4M3FN, 0x7e, 448},
	{"e4m3fn min subnormal", dlpack.Float8E4M3FN, 0x01, 0x1p-9},
	{"e4m3fn -0", dlpack.Float8E4M3FN, 0x80, math.Copysign(0, -1)},
	{"e4m3fn NaN", dlpack.Float8E4M3FN, 0x7f, math.NaN()},
	{"e4m3fn -NaN", dlpack.Float8E4M3FN, 0xff, math.NaN()},
	{"e4m3 inf", dlpack.Float8E4M3, 0x78, math.Inf(1)},
	{"e4m3 max", dlpack.Float8E4M3, 0x77, 240},
	{"e3m4 one", dlpack.Float8E3M4, 0x30, 1},
	{"e3m4 max", dlpack.Float8E3M4, 0x6f, 15.5},
	{"e5m2 max", dlpack.Float8E5M2, 0x7b, 57344},
	{"e5m2 -inf", dlpack.Float8E5M2, 0xfc, math.Inf(-1)},
	{"e5m2 NaN", dlpack.Float8E5M2, 0x7d, math.NaN()},
	{"e5m2 min subnormal", dlpack.Float8E5M2, 0x01, 0x1p-16},
	{"e4m3fnuz one", dlpack.Float8E4M3FNUZ, 0x40, 1},
	{"e4m3fnuz max", dlpack.Float8E4M3FNUZ, 0x7f, 240},
	{"e4m3fnuz NaN", dlpack.Float8E4M3FNUZ, 0x80, math.NaN()},
	{"e4m3b11fnuz one", dlpack.Float8E4M3B11FNUZ, 0x58, 1},
	{"e4m3b11fnuz max", dlpack.Float8E4M3B11FNUZ, 0x7f, 30},
	{"e5m2fnuz max", dlpack.Float8E5M2FNUZ, 0x7f, 57344},
	{"e5m2fnuz NaN", dlpack.Float8E5M2FNUZ, 0x80, math.NaN()},
	{"e8m0fnu one", dlpack.Float8E8M0FNU, 127, 1},
	{"e8m0fnu min", dlpack.Float8E8M0FNU, 0, 0x1p-127},
	{"e8m0fnu max", dlpack.Float8E8M0FNU, 254, 0x1p127},
	{"e8m0fnu NaN", dlpack.Float8E8M0FNU, 255, math.NaN()},
	{"e2m3fn max", dlpack.Float6E2M3FN, 0x1f, 7.5},
	{"e2m3fn -min subnormal", dlpack.Float6E2M3FN, 0x21, -0.125},
	{"e3m2fn max", dlpack.Float6E3M2FN, 0x1f, 28},
	{"e3m2fn min subnormal", dlpack.Float6E3M2FN, 0x01, 0.0625},
	{"e2m1fn max", dlpack.Float4E2M1FN, 0x7, 6},
	{"e2m1fn half", dlpack.Float4E2M1FN, 0x1, 0.5},
	{"e2m1fn -one", dlpack.Float4E2M1FN, 0xa, -1},
}

func TestDecode(t *testing.T) {
	for _, r := range minifloatRows {
		got, ok := Decode(r.code, r.b)
		if !ok || !sameFloat(got, r.v) {
			t.Errorf("%s: Decode(%d, %#x) = %v, %v; want %v, true", r.name, r.code, r.b, got, ok, r.v)
		}
	}
}

func TestEncodeExact(t *testing.T) {
	for _, r := range minifloatRows {
		if math.IsNaN(r.v) {
			continue // a format may have several NaN codes
		}
		got, ok := Encode(r.code, r.v)
		if !ok || got != r.b {
			t.Errorf("%s: Encode(%d, %v) = %#x, %v; want %#x, true", r.name, r.code, r.v, got, ok, r.b)
		}
	}
}

func TestEncodeRounding(t *testing.T) {
	for _, r := range []struct {
		name string
		code dlpack.Code
		x    float64
		want float64
	}{
		{"e4m3fn tie to even, down", dlpack.Float8E4M3FN, 1.0625, 1},
		{"e4m3fn tie to even, up", dlpack.Float8E4M3FN, 1.1875, 1.25},
		{"e4m3fn below tie", dlpack.Float8E4M3FN, 1.06, 1},
		{"e4m3fn above tie", dlpack.Float8E4M3FN, 1.07, 1.125},
		{"e4m3fn under max tie", dlpack.Float8E4M3FN, 464, 448},
		{"e4m3fn overflow", dlpack.Float8E4M3FN, 480, math.NaN()},
		{"e4m3fn inf", dlpack.Float8E4M3FN, math.Inf(1), math.NaN()},
		{"e4m3fn tiny negative keeps sign", dlpack.Float8E4M3FN, -1e-30, math.Copysign(0, -1)},
		{"e4m3fn tiny positive", dlpack.Float8E4M3FN, 1e-30, 0},
		{"e4m3fn -0", dlpack.Float8E4M3FN, math.Copysign(0, -1), math.Copysign(0, -1)},
		{"e5m2 overflow", dlpack.Float8E5M2, 1e6, math.Inf(1)},
		{"e5m2 -inf", dlpack.Float8E5M2, math.Inf(-1), math.Inf(-1)},
		{"e5m2 tiny negative keeps sign", dlpack.Float8E5M2, -1e-30, math.Copysign(0, -1)},
		{"e5m2 NaN", dlpack.Float8E5M2, math.NaN(), math.NaN()},
		{"e4m3fnuz tiny negative", dlpack.Float8E4M3FNUZ, -1e-30, 0},
		{"e4m3fnuz overflow", dlpack.Float8E4M3FNUZ, 1e6, math.NaN()},
		{"e2m1fn saturates", dlpack.Float4E2M1FN, 100, 6},
		{"e2m1fn saturates negative", dlpack.Float4E2M1FN, -100, -6},
		{"e2m1fn NaN has no code", dlpack.Float4E2M1FN, math.NaN(), 0},
		{"e3m2fn tie to even", dlpack.Float6E3M2FN, 2.25, 2},
	} {
		b, ok := Encode(r.code, r.x)
		got, decoded := Decode(r.code, b)
		if !ok || !decoded || !sameFloat(got, r.want) {
			t.Errorf("%s: Encode(%d, %v) = %#x (%v, decoded %v), %v; want %v", r.name, r.code, r.x, b, got, decoded, ok, r.want)
		}
	}
}

// Every code that is a number encodes back to itself.
func TestMinifloatRoundTrip(t *testing.T) {
	for code, f := range formats {
		for i := 0; i < 1<<f.width(); i++ {
			v, ok := Decode(code, uint8(i))
			if !ok {
				t.Fatalf("code %d: Decode(%#x) refused a code of the table", code, i)
			}
			if math.IsNaN(v) {
				continue
			}
			if b, ok := Encode(code, v); !ok || b != uint8(i) {
				t.Errorf("code %d: Encode(Decode(%#x) = %v) = %#x, %v", code, i, v, b, ok)
			}
		}
	}
}

func TestMinifloatOtherCodes(t *testing.T) {
	for _, c := range []dlpack.Code{dlpack.Int, dlpack.Float, dlpack.Bfloat, dlpack.Complex, dlpack.CodeBool, 18, 255} {
		if _, ok := Decode(c, 0); ok {
			t.Errorf("Decode(%d) reported a minifloat", c)
		}
		if _, ok := Encode(c, 0); ok {
			t.Errorf("Encode(%d) reported a minifloat", c)
		}
	}
}

// TestEncodeMinifloatBeyondMax checks values at and past the largest
// finite value of each format: they round to it until the midpoint
// between it and the next power of the format's step (a tie rounds to the
// even code), and past that become infinity, NaN or, in a format with
// neither, the largest finite value again (saturation).
func TestEncodeMinifloatBeyondMax(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	formats := []struct {
		name     string
		code     dlpack.Code
		max, ulp float64 // largest finite value and the step below it
		tieUp    bool    // the code of max is odd
		over     float64 // what a value rounding past max becomes (positive)
	}{
		{"e3m4", dlpack.Float8E3M4, 15.5, 0.5, true, inf},
		{"e4m3", dlpack.Float8E4M3, 240, 16, true, inf},
		{"e4m3b11fnuz", dlpack.Float8E4M3B11FNUZ, 30, 2, true, nan},
		{"e4m3fn", dlpack.Float8E4M3FN, 448, 32, false, nan},
		{"e4m3fnuz", dlpack.Float8E4M3FNUZ, 240, 16, true, nan},
		{"e5m2", dlpack.Float8E5M2, 57344, 8192, true, inf},
		{"e5m2fnuz", dlpack.Float8E5M2FNUZ, 57344, 8192, true, nan},
		{"e2m3fn", dlpack.Float6E2M3FN, 7.5, 0.5, true, 7.5},
		{"e3m2fn", dlpack.Float6E3M2FN, 28, 4, true, 28},
		{"e2m1fn", dlpack.Float4E2M1FN, 6, 2, true, 6},
	}
	for _, f := range formats {
		tie := f.max + f.ulp/2
		tieResult := f.max
		if f.tieUp {
			tieResult = f.over
		}
		inputs := []struct {
			x    float64
			want float64
		}{
			{f.max, f.max},
			{math.Nextafter(tie, 0), f.max},
			{tie, tieResult},
			{math.Nextafter(tie, inf), f.over},
			{2 * f.max, f.over},
			{1e16, f.over},
			{1e17, f.over},
			{1e300, f.over},
			{math.MaxFloat64, f.over},
			{inf, f.over},
		}
		for _, in := range inputs {
			for _, s := range []float64{1, -1} {
				b, ok := Encode(f.code, s*in.x)
				got, _ := Decode(f.code, b)
				if want := s * in.want; !ok || !sameFloat(got, want) {
					t.Errorf("%s: Encode(%v) = %#x (%v), %v; want %v", f.name, s*in.x, b, got, ok, want)
				}
			}
		}
		b, ok := Encode(f.code, nan)
		got, _ := Decode(f.code, b)
		want := nan
		if f.over == f.max {
			want = 0 // no NaN to give
		}
		if !ok || !sameFloat(got, want) {
			t.Errorf("%s: Encode(NaN) = %#x (%v), %v; want %v", f.name, b, got, ok, want)
		}
	}
}

// refEncoder is a reference encoder for the formats with a sign bit: it
// measures the exact distance from |x| to every finite magnitude, and to
// the value one step past the largest, which stands for rounding past it.
type refEncoder struct {
	mags []*big.Rat // the finite magnitudes by positive code, then the one past
}

func newRefEncoder(c dlpack.Code) refEncoder {
	f := formats[c]
	var mags []float64
	for i := 0; i < 1<<(f.exp+f.man); i++ {
		if v := f.decode(uint8(i)); !math.IsNaN(v) && !math.IsInf(v, 0) {
			mags = append(mags, v)
		}
	}
	n := len(mags)
	mags = append(mags, 2*mags[n-1]-mags[n-2])
	var r refEncoder
	for _, v := range mags {
		r.mags = append(r.mags, new(big.Rat).SetFloat64(v))
	}
	return r
}

// nearest returns the positive code nearest to |x|, ties to even; past
// says that it is the one past the largest finite (then code is the
// largest finite).
func (r refEncoder) nearest(x float64) (code uint8, past bool) {
	bx := new(big.Rat).SetFloat64(math.Abs(x))
	d, best := new(big.Rat), new(big.Rat)
	for i, v := range r.mags {
		d.Sub(v, bx).Abs(d)
		if i == 0 || d.Cmp(best) < 0 || d.Cmp(best) == 0 && i&1 == 0 {
			code = uint8(i)
			best.Set(d)
		}
	}
	if int(code) == len(r.mags)-1 {
		return code - 1, true
	}
	return code, false
}

func TestEncodeMinifloatMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for c, f := range formats {
		if !f.signed {
			continue
		}
		ref := newRefEncoder(c)
		maxV, _ := ref.mags[len(ref.mags)-2].Float64()
		var nan []uint8
		for i := 0; i < 1<<f.width(); i++ {
			if math.IsNaN(f.decode(uint8(i))) {
				nan = append(nan, uint8(i))
			}
		}
		for range 500 {
			// Mostly values in the format's range, some beyond it,
			// some down among the subnormals, some far beyond.
			x := (r.Float64()*2 - 1) * maxV * 1.5
			switch r.IntN(8) {
			case 0, 1:
				x = math.Ldexp(x, -r.IntN(20))
			case 2:
				x = math.Ldexp(x, r.IntN(1000))
			}
			got, _ := Encode(c, x)
			code, past := ref.nearest(x)
			signBit := uint8(1) << (f.exp + f.man)
			want := code
			if math.Signbit(x) && !(code == 0 && f.special == fnuzSpecials) {
				want |= signBit
			}
			switch {
			case !past:
			case f.special == ieeeSpecials:
				want = uint8((1<<f.exp-1)<<f.man) | want&signBit // infinity
			case len(nan) > 0:
				if !slices.Contains(nan, got) {
					t.Errorf("code %d: Encode(%v) = %#x, want a NaN", c, x, got)
				}
				continue
			}
			if got != want {
				t.Errorf("code %d: Encode(%v) = %#x, want %#x", c, x, got, want)
			}
		}
	}
}

// Between each finite magnitude and the next, the midpoint rounds to the
// even code, and one float64 step to either side of it to the nearer one.
func TestEncodeMinifloatMidpoints(t *testing.T) {
	for c, f := range formats {
		if !f.signed {
			continue
		}
		signBit := uint8(1) << (f.exp + f.man)
		for lo := uint8(0); ; lo++ {
			a, b := f.decode(lo), f.decode(lo+1)
			if math.IsNaN(b) || math.IsInf(b, 0) || lo+1 == signBit {
				break
			}
			mid := a + (b-a)/2
			even := lo + lo&1
			for _, s := range []float64{1, -1} {
				sb := uint8(0)
				if s < 0 {
					sb = signBit
				}
				for _, tt := range []struct {
					x    float64
					want uint8
				}{
					{s * mid, even | sb},
					{s * math.Nextafter(mid, 0), lo | sb},
					{s * math.Nextafter(mid, math.Inf(1)), (lo + 1) | sb},
				} {
					if tt.want == signBit && f.special == fnuzSpecials {
						tt.want = 0 // no negative zero
					}
					if got, _ := Encode(c, tt.x); got != tt.want {
						t.Errorf("code %d: Encode(%v) = %#x, want %#x", c, tt.x, got, tt.want)
					}
				}
			}
		}
	}
}

// The codes PyTorch 2.15 gives, read with
// torch.tensor([x], dtype=torch.float32).to(torch.float8_e8m0fnu).view(torch.uint8)
// (torch.full and a float64 tensor give the same: both go through float32).
func TestEncodeE8M0MatchesPyTorch(t *testing.T) {
	tests := []struct {
		x    float64
		want uint8
	}{
		{0, 0},
		{math.Copysign(0, -1), 0},
		{1, 127},
		{1.4, 127},
		{1.5, 128}, // a tie: up
		{1.6, 128},
		{2, 128},
		{3, 129}, // a tie: up, where ml_dtypes-style ties to even code gave 2
		{-3, 129},
		{12, 131},
		{0.75, 127},
		{6, 130},
		{0.5, 126},
		{-1, 127}, // the sign is dropped
		{0x1p-126, 1},
		{0x1.8p-126, 2},
		{0x1p-127, 0}, // the float32 subnormal 0.5 * 2**-126: a tie, down
		{0x1p-127 + 0x1p-149, 1},
		{0x1.4p-127, 1},
		{0x1.8p-127, 1},
		{0x1.cp-127, 1},
		{0x1p-128, 0},
		{0x1p-140, 0},
		{0x1p-149, 0},
		{1e-45, 0},
		{1e-50, 0},                    // 0 in float32
		{0x1p-127 * (1 + 0x1p-30), 0}, // rounds to 2**-127 in float32 first
		{1.5 - 0x1p-40, 128},          // rounds to 1.5 in float32 first
		{0x1p127, 254},
		{0x1.6666666666666p127, 254}, // 1.4 * 2**127
		{0x1.8p127, 255},
		{0x1.8p127 - 0x1p90, 255}, // rounds to 1.5 * 2**127 in float32 first
		{math.MaxFloat32, 255},
		{1e39, 255}, // infinity in float32
		{math.Inf(1), 255},
		{math.Inf(-1), 255},
		{math.NaN(), 255},
	}
	for _, tt := range tests {
		if got, ok := Encode(dlpack.Float8E8M0FNU, tt.x); !ok || got != tt.want {
			t.Errorf("Encode(float8_e8m0fnu, %v) = %d, %v; want %d", tt.x, got, ok, tt.want)
		}
	}
}
