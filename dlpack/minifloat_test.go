package dlpack

import (
	"math"
	"testing"
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
	code Code
	b    uint8
	v    float64
}{
	{"e4m3fn one", Float8E4M3FN, 0x38, 1},
	{"e4m3fn max", Float8E4M3FN, 0x7e, 448},
	{"e4m3fn min subnormal", Float8E4M3FN, 0x01, 0x1p-9},
	{"e4m3fn -0", Float8E4M3FN, 0x80, math.Copysign(0, -1)},
	{"e4m3fn NaN", Float8E4M3FN, 0x7f, math.NaN()},
	{"e4m3fn -NaN", Float8E4M3FN, 0xff, math.NaN()},
	{"e4m3 inf", Float8E4M3, 0x78, math.Inf(1)},
	{"e4m3 max", Float8E4M3, 0x77, 240},
	{"e3m4 one", Float8E3M4, 0x30, 1},
	{"e3m4 max", Float8E3M4, 0x6f, 15.5},
	{"e5m2 max", Float8E5M2, 0x7b, 57344},
	{"e5m2 -inf", Float8E5M2, 0xfc, math.Inf(-1)},
	{"e5m2 NaN", Float8E5M2, 0x7d, math.NaN()},
	{"e5m2 min subnormal", Float8E5M2, 0x01, 0x1p-16},
	{"e4m3fnuz one", Float8E4M3FNUZ, 0x40, 1},
	{"e4m3fnuz max", Float8E4M3FNUZ, 0x7f, 240},
	{"e4m3fnuz NaN", Float8E4M3FNUZ, 0x80, math.NaN()},
	{"e4m3b11fnuz one", Float8E4M3B11FNUZ, 0x58, 1},
	{"e4m3b11fnuz max", Float8E4M3B11FNUZ, 0x7f, 30},
	{"e5m2fnuz max", Float8E5M2FNUZ, 0x7f, 57344},
	{"e5m2fnuz NaN", Float8E5M2FNUZ, 0x80, math.NaN()},
	{"e8m0fnu one", Float8E8M0FNU, 127, 1},
	{"e8m0fnu min", Float8E8M0FNU, 0, 0x1p-127},
	{"e8m0fnu max", Float8E8M0FNU, 254, 0x1p127},
	{"e8m0fnu NaN", Float8E8M0FNU, 255, math.NaN()},
	{"e2m3fn max", Float6E2M3FN, 0x1f, 7.5},
	{"e2m3fn -min subnormal", Float6E2M3FN, 0x21, -0.125},
	{"e3m2fn max", Float6E3M2FN, 0x1f, 28},
	{"e3m2fn min subnormal", Float6E3M2FN, 0x01, 0.0625},
	{"e2m1fn max", Float4E2M1FN, 0x7, 6},
	{"e2m1fn half", Float4E2M1FN, 0x1, 0.5},
	{"e2m1fn -one", Float4E2M1FN, 0xa, -1},
}

func TestDecodeMinifloat(t *testing.T) {
	for _, r := range minifloatRows {
		got, ok := DecodeMinifloat(r.code, r.b)
		if !ok || !sameFloat(got, r.v) {
			t.Errorf("%s: DecodeMinifloat(%d, %#x) = %v, %v; want %v, true", r.name, r.code, r.b, got, ok, r.v)
		}
	}
}

func TestEncodeMinifloatExact(t *testing.T) {
	for _, r := range minifloatRows {
		if math.IsNaN(r.v) {
			continue // a format may have several NaN codes
		}
		got, ok := EncodeMinifloat(r.code, r.v)
		if !ok || got != r.b {
			t.Errorf("%s: EncodeMinifloat(%d, %v) = %#x, %v; want %#x, true", r.name, r.code, r.v, got, ok, r.b)
		}
	}
}

func TestEncodeMinifloatRounding(t *testing.T) {
	for _, r := range []struct {
		name string
		code Code
		x    float64
		want float64
	}{
		{"e4m3fn tie to even, down", Float8E4M3FN, 1.0625, 1},
		{"e4m3fn tie to even, up", Float8E4M3FN, 1.1875, 1.25},
		{"e4m3fn below tie", Float8E4M3FN, 1.06, 1},
		{"e4m3fn above tie", Float8E4M3FN, 1.07, 1.125},
		{"e4m3fn under max tie", Float8E4M3FN, 464, 448},
		{"e4m3fn overflow", Float8E4M3FN, 480, math.NaN()},
		{"e4m3fn inf", Float8E4M3FN, math.Inf(1), math.NaN()},
		{"e4m3fn tiny negative keeps sign", Float8E4M3FN, -1e-30, math.Copysign(0, -1)},
		{"e4m3fn tiny positive", Float8E4M3FN, 1e-30, 0},
		{"e4m3fn -0", Float8E4M3FN, math.Copysign(0, -1), math.Copysign(0, -1)},
		{"e5m2 overflow", Float8E5M2, 1e6, math.Inf(1)},
		{"e5m2 -inf", Float8E5M2, math.Inf(-1), math.Inf(-1)},
		{"e5m2 tiny negative keeps sign", Float8E5M2, -1e-30, math.Copysign(0, -1)},
		{"e5m2 NaN", Float8E5M2, math.NaN(), math.NaN()},
		{"e4m3fnuz tiny negative", Float8E4M3FNUZ, -1e-30, 0},
		{"e4m3fnuz overflow", Float8E4M3FNUZ, 1e6, math.NaN()},
		{"e8m0fnu nearest below", Float8E8M0FNU, 1.4, 1},
		{"e8m0fnu nearest above", Float8E8M0FNU, 1.6, 2},
		{"e8m0fnu tie to even code", Float8E8M0FNU, 3, 2},
		{"e8m0fnu zero", Float8E8M0FNU, 0, 0x1p-127},
		{"e8m0fnu negative", Float8E8M0FNU, -1, math.NaN()},
		{"e8m0fnu overflow", Float8E8M0FNU, 1e39, math.NaN()},
		{"e2m1fn saturates", Float4E2M1FN, 100, 6},
		{"e2m1fn saturates negative", Float4E2M1FN, -100, -6},
		{"e2m1fn NaN has no code", Float4E2M1FN, math.NaN(), 0},
		{"e3m2fn tie to even", Float6E3M2FN, 2.25, 2},
	} {
		b, ok := EncodeMinifloat(r.code, r.x)
		got, _ := DecodeMinifloat(r.code, b)
		if !ok || !sameFloat(got, r.want) {
			t.Errorf("%s: EncodeMinifloat(%d, %v) = %#x (%v), %v; want %v", r.name, r.code, r.x, b, got, ok, r.want)
		}
	}
}

// Every code that is a number encodes back to itself.
func TestMinifloatRoundTrip(t *testing.T) {
	for code, f := range minifloats {
		for i := 0; i < 1<<f.width(); i++ {
			v, _ := DecodeMinifloat(code, uint8(i))
			if math.IsNaN(v) {
				continue
			}
			if b, ok := EncodeMinifloat(code, v); !ok || b != uint8(i) {
				t.Errorf("code %d: EncodeMinifloat(DecodeMinifloat(%#x) = %v) = %#x, %v", code, i, v, b, ok)
			}
		}
	}
}

func TestMinifloatOtherCodes(t *testing.T) {
	for _, c := range []Code{Int, Float, Bfloat, Complex, CodeBool, 18, 255} {
		if _, ok := DecodeMinifloat(c, 0); ok {
			t.Errorf("DecodeMinifloat(%d) reported a minifloat", c)
		}
		if _, ok := EncodeMinifloat(c, 0); ok {
			t.Errorf("EncodeMinifloat(%d) reported a minifloat", c)
		}
	}
}
