package minifloat

import (
	"math"
	"math/rand/v2"
	"testing"
)

// halfFormat is float16 or bfloat16 as the tests see them: the functions
// under test and the field widths an independent decoder needs.
type halfFormat struct {
	name      string
	enc       func(float64) uint16
	dec       func(uint16) float64
	exp, man  uint
	maxFinite uint16
}

var halfFormats = []halfFormat{
	{"float16", EncodeFloat16, DecodeFloat16, 5, 10, 0x7bff},
	{"bfloat16", EncodeBfloat16, DecodeBfloat16, 8, 7, 0x7f7f},
}

// value decodes c by the textbook formula, independently of the code under
// test: (-1)**s * m * 2**(e-bias-man), with the implicit bit for e > 0.
func (h halfFormat) value(c uint16) float64 {
	bias := 1<<(h.exp-1) - 1
	e := int(c>>h.man) & (1<<h.exp - 1)
	m := float64(c & (1<<h.man - 1))
	s := 1.0
	if c>>15 != 0 {
		s = -1
	}
	switch e {
	case 1<<h.exp - 1:
		if m != 0 {
			return math.NaN()
		}
		return math.Inf(int(s))
	case 0:
		return s * math.Ldexp(m, 1-bias-int(h.man))
	}
	return s * math.Ldexp(m+float64(int(1)<<h.man), e-bias-int(h.man))
}

func (h halfFormat) isNaN(c uint16) bool {
	inf := uint16(1<<h.exp-1) << h.man
	return c&inf == inf && c&(1<<h.man-1) != 0
}

func (h halfFormat) quietNaN(c uint16) bool {
	return h.isNaN(c) && c&(1<<(h.man-1)) != 0
}

func TestEncodeHalfRounding(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name string
		enc  func(float64) uint16
		x    float64
		want uint16
	}{
		{"f16 one", EncodeFloat16, 1, 0x3c00},
		{"f16 minus two", EncodeFloat16, -2, 0xc000},
		{"f16 zero", EncodeFloat16, 0, 0x0000},
		{"f16 negative zero", EncodeFloat16, negZero, 0x8000},
		{"f16 tie to even, down", EncodeFloat16, 1 + 0x1p-11, 0x3c00},
		{"f16 tie to even, up", EncodeFloat16, 1 + 3*0x1p-11, 0x3c02},
		{"f16 just above a tie", EncodeFloat16, 1 + 0x1p-11 + 0x1p-40, 0x3c01}, // through float32: 0x3c00
		{"f16 just below a tie", EncodeFloat16, 1 + 3*0x1p-11 - 0x1p-40, 0x3c01},
		{"f16 integer tie", EncodeFloat16, 2049, 0x6800},
		{"f16 integer tie up", EncodeFloat16, 2051, 0x6802},
		{"f16 max", EncodeFloat16, 65504, 0x7bff},
		{"f16 below the overflow tie", EncodeFloat16, 65519.99, 0x7bff},
		{"f16 overflow tie goes to infinity", EncodeFloat16, 65520, 0x7c00},
		{"f16 negative overflow", EncodeFloat16, -1e6, 0xfc00},
		{"f16 MaxFloat64", EncodeFloat16, math.MaxFloat64, 0x7c00},
		{"f16 -MaxFloat64", EncodeFloat16, -math.MaxFloat64, 0xfc00},
		{"f16 inf", EncodeFloat16, math.Inf(1), 0x7c00},
		{"f16 -inf", EncodeFloat16, math.Inf(-1), 0xfc00},
		{"f16 smallest normal", EncodeFloat16, 0x1p-14, 0x0400},
		{"f16 largest subnormal", EncodeFloat16, 1023 * 0x1p-24, 0x03ff},
		{"f16 tie into the normals", EncodeFloat16, 1023.5 * 0x1p-24, 0x0400},
		{"f16 smallest subnormal", EncodeFloat16, 0x1p-24, 0x0001},
		{"f16 half the smallest subnormal, tie to zero", EncodeFloat16, 0x1p-25, 0x0000},
		{"f16 above half the smallest subnormal", EncodeFloat16, 0x1p-25 + 0x1p-60, 0x0001},
		{"f16 negative tie to zero", EncodeFloat16, -0x1p-25, 0x8000},
		{"f16 subnormal tie up", EncodeFloat16, 3 * 0x1p-25, 0x0002},
		{"f16 subnormal tie down", EncodeFloat16, 5 * 0x1p-25, 0x0002},
		{"f16 tiny", EncodeFloat16, 1e-300, 0x0000},
		{"f16 float64 subnormal", EncodeFloat16, -math.SmallestNonzeroFloat64, 0x8000},
		{"bf16 one", EncodeBfloat16, 1, 0x3f80},
		{"bf16 negative zero", EncodeBfloat16, negZero, 0x8000},
		{"bf16 tie to even, down", EncodeBfloat16, 1 + 0x1p-8, 0x3f80},
		{"bf16 tie to even, up", EncodeBfloat16, 1 + 3*0x1p-8, 0x3f82},
		{"bf16 just above a tie", EncodeBfloat16, 1 + 0x1p-8 + 0x1p-30, 0x3f81}, // through float32: 0x3f80
		{"bf16 pi", EncodeBfloat16, math.Pi, 0x4049},
		{"bf16 max", EncodeBfloat16, 0x1.fep127, 0x7f7f},
		{"bf16 below the overflow tie", EncodeBfloat16, 0x1.fefffffp127, 0x7f7f},
		{"bf16 overflow tie goes to infinity", EncodeBfloat16, 0x1.ffp127, 0x7f80},
		{"bf16 float32 max", EncodeBfloat16, math.MaxFloat32, 0x7f80},
		{"bf16 -MaxFloat64", EncodeBfloat16, -math.MaxFloat64, 0xff80},
		{"bf16 -inf", EncodeBfloat16, math.Inf(-1), 0xff80},
		{"bf16 smallest subnormal", EncodeBfloat16, 0x1p-133, 0x0001},
		{"bf16 half the smallest subnormal, tie to zero", EncodeBfloat16, 0x1p-134, 0x0000},
		{"bf16 negative, above half the smallest subnormal", EncodeBfloat16, -0x1.00001p-134, 0x8001},
		{"bf16 smallest normal", EncodeBfloat16, 0x1p-126, 0x0080},
		{"bf16 tie into the normals", EncodeBfloat16, 127.5 * 0x1p-133, 0x0080},
	}
	for _, tt := range tests {
		if got := tt.enc(tt.x); got != tt.want {
			t.Errorf("%s: encode(%v) = %#04x, want %#04x", tt.name, tt.x, got, tt.want)
		}
	}
}

func TestEncodeHalfNaN(t *testing.T) {
	signaling := math.Float64frombits(0x7ff0000000000001) // payload only in bits no narrow format keeps
	for _, h := range halfFormats {
		for _, x := range []float64{math.NaN(), -math.NaN(), signaling, -signaling, math.Float64frombits(0x7fffffffffffffff)} {
			c := h.enc(x)
			if !h.quietNaN(c) {
				t.Errorf("%s: encode(NaN %#x) = %#04x, not a quiet NaN", h.name, math.Float64bits(x), c)
			}
			if c>>15 != uint16(math.Float64bits(x)>>63) {
				t.Errorf("%s: encode(NaN %#x) = %#04x lost the sign", h.name, math.Float64bits(x), c)
			}
		}
	}
}

// TestHalfExhaustive checks every code of each format: the decoder against
// the textbook formula, decode then encode, and rounding at the midpoint
// between each code and the next (ties to even) and one float64 step to
// either side of it.
func TestHalfExhaustive(t *testing.T) {
	for _, h := range halfFormats {
		for i := 0; i < 1<<16; i++ {
			c := uint16(i)
			v := h.dec(c)
			if want := h.value(c); !sameFloat(v, want) {
				t.Errorf("%s: decode(%#04x) = %v, want %v", h.name, c, v, want)
			}
			if math.IsNaN(v) {
				if !h.isNaN(c) {
					t.Errorf("%s: decode(%#04x) = NaN", h.name, c)
				}
				if b := math.Float64bits(v); b>>63 != uint64(c>>15) || b&(1<<51) == 0 {
					t.Errorf("%s: decode(%#04x) = %#x, not a quiet NaN of its sign", h.name, c, b)
				}
				if got := h.enc(v); !h.quietNaN(got) || got>>15 != c>>15 {
					t.Errorf("%s: encode(decode(%#04x)) = %#04x, want a quiet NaN of its sign", h.name, c, got)
				}
				continue
			}
			if got := h.enc(v); got != c {
				t.Errorf("%s: encode(decode(%#04x) = %v) = %#04x", h.name, c, v, got)
			}
		}
		// Midpoints between consecutive magnitudes, up to the one between
		// the largest finite value and the power of two after it, which
		// is where rounding gives infinity.
		inf := uint16(1<<h.exp-1) << h.man
		for lo := uint16(0); lo <= h.maxFinite; lo++ {
			a := h.value(lo)
			b := h.value(lo + 1)
			if lo+1 == inf {
				b = 2 * math.Ldexp(1, 1<<(h.exp-1)-1) // the first value past the format
			}
			mid := a + (b-a)/2 // exact: a and b have few significant bits
			even := lo
			if lo&1 == 1 {
				even = lo + 1
			}
			for _, s := range []uint16{0, 0x8000} {
				sg := 1.0
				if s != 0 {
					sg = -1
				}
				cases := []struct {
					x    float64
					want uint16
				}{
					{sg * mid, even | s},
					{sg * math.Nextafter(mid, 0), lo | s},
					{sg * math.Nextafter(mid, math.Inf(1)), (lo + 1) | s},
				}
				for _, cs := range cases {
					if got := h.enc(cs.x); got != cs.want {
						t.Errorf("%s: encode(%v) = %#04x, want %#04x", h.name, cs.x, got, cs.want)
					}
				}
			}
		}
	}
}

// For a float32 input, bfloat16 rounding from float64 must agree with the
// usual integer trick on the float32 bits (add 0x7fff plus the lowest kept
// bit, then truncate).
func TestEncodeBfloat16MatchesFloat32Trick(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200000 {
		bits := r.Uint32()
		f := math.Float32frombits(bits)
		if f != f {
			continue
		}
		want := uint16((bits + 0x7fff + bits>>16&1) >> 16)
		if got := EncodeBfloat16(float64(f)); got != want {
			t.Fatalf("EncodeBfloat16(%v, bits %#08x) = %#04x, want %#04x", f, bits, got, want)
		}
	}
}
