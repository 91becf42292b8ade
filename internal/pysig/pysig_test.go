package pysig

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want []Param
	}{
		{"", nil},
		{"x, /", []Param{{Name: "x", Kind: PositionalOnly}}},
		{"x, /, lo=-inf, hi=inf", []Param{
			{Name: "x", Kind: PositionalOnly},
			{Name: "lo", Kind: PositionalOrKeyword, Default: "-inf", HasDefault: true},
			{Name: "hi", Kind: PositionalOrKeyword, Default: "inf", HasDefault: true}}},
		{"a, b=2, *, c, d='x,y'", []Param{
			{Name: "a", Kind: PositionalOrKeyword},
			{Name: "b", Kind: PositionalOrKeyword, Default: "2", HasDefault: true},
			{Name: "c", Kind: KeywordOnly},
			{Name: "d", Kind: KeywordOnly, Default: "'x,y'", HasDefault: true}}},
		{"x: tensor[float32|float64, (*, *)], /", []Param{
			{Name: "x", Kind: PositionalOnly, Annotation: "tensor[float32|float64, (*, *)]"}}},
		{"n: int = 3", []Param{{Name: "n", Kind: PositionalOrKeyword, Annotation: "int", Default: "3", HasDefault: true}}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Parse(%q) = %+v, %v; want %+v", tt.in, got, err, tt.want)
		}
	}
}

func TestParseRefuses(t *testing.T) {
	for _, in := range []string{"/", "x, , y", "x=1, y", "x, x", "1x", "*", "x, *, *, y", "x, *, /", "x=", "x, (y"} {
		if got, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, got)
		}
	}
}

func TestParseTensor(t *testing.T) {
	tests := []struct {
		in   string
		want Tensor
		ok   bool
	}{
		{"int", Tensor{}, false},
		{"", Tensor{}, false},
		{"tensor", Tensor{Device: "cpu"}, true},
		{"tensor[float32|float64, (*, *)]", Tensor{DTypes: []string{"float32", "float64"}, Shape: []int64{-1, -1}, Device: "cpu"}, true},
		{"tensor[float32 | float64, writable, C]", Tensor{DTypes: []string{"float32", "float64"}, Writable: true, Order: 'C', Device: "cpu"}, true},
		{"tensor[float32, C, writable, convert]", Tensor{DTypes: []string{"float32"}, Writable: true, Convert: true, Order: 'C', Device: "cpu"}, true},
		{"tensor[(), device=any]", Tensor{Shape: []int64{}, Device: "any"}, true},
		{"tensor[(3,), F, convert, int8]", Tensor{Shape: []int64{3}, Order: 'F', Convert: true, DTypes: []string{"int8"}, Device: "cpu"}, true},
	}
	for _, tt := range tests {
		got, ok, err := ParseTensor(tt.in)
		if err != nil || ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseTensor(%q) = %+v, %v, %v; want %+v, %v", tt.in, got, ok, err, tt.want, tt.ok)
		}
	}
	for _, in := range []string{"tensor[(-1)]", "tensor[float32||x]", "tensor[what?]", "tensor[(a)]"} {
		if got, _, err := ParseTensor(in); err == nil {
			t.Errorf("ParseTensor(%q) = %+v, want an error", in, got)
		}
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		in, params, results string
		arrow               bool
	}{
		{"x, /", "x, /", "", false},
		{"x, / -> tensor[float32, (*)]", "x, /", "tensor[float32, (*)]", true},
		{"-> None", "", "None", true},
		{"s='->', /", "s='->', /", "", false},
		{"s='->' -> str", "s='->'", "str", true},
		{"x: tensor[float32] ->", "x: tensor[float32]", "", true},
	}
	for _, tt := range tests {
		params, results, arrow := Split(tt.in)
		if params != tt.params || results != tt.results || arrow != tt.arrow {
			t.Errorf("Split(%q) = %q, %q, %v; want %q, %q, %v", tt.in, params, results, arrow, tt.params, tt.results, tt.arrow)
		}
	}
}

func TestResults(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want []string
		err  string
	}{
		{"None", 0, []string{}, ""},
		{"tensor[float32, (*)]", 1, []string{"tensor[float32, (*)]"}, ""},
		{"tuple[int, int]", 1, []string{"tuple[int, int]"}, ""},
		{"tuple[tensor[float32, (*, 3)], int]", 2, []string{"tensor[float32, (*, 3)]", "int"}, ""},
		{"", 1, nil, "-> with no annotation"},
		{"int", 0, nil, "-> int: the Go function has no result, so -> None"},
		{"int", 2, nil, "-> int: the Go function has 2 results, which Python gets as a tuple"},
		{"tuple[int]", 2, nil, "-> tuple[int] names 1 results, and the Go function has 2"},
		{"tuple[int, ]", 2, nil, "an empty annotation"},
	}
	for _, tt := range tests {
		got, err := Results(tt.in, tt.n)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("Results(%q, %d) = %q, %v; want an error %q", tt.in, tt.n, got, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Results(%q, %d) = %q, %v; want %q", tt.in, tt.n, got, err, tt.want)
		}
	}
}

// TestTensorString: an annotation written out reads back as itself.
func TestTensorString(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"tensor", "tensor"},
		{"tensor[(*,)]", "tensor[(*)]"},
		{"tensor[writable, float32 | float64, (*, 3)]", "tensor[float32|float64, (*, 3), writable]"},
		{"tensor[(), device=any]", "tensor[(), device=any]"},
		{"tensor[F, convert, int8, (2, *, *), device=cpu]", "tensor[int8, (2, *, *), F, convert]"},
	} {
		a, ok, err := ParseTensor(tt.in)
		if !ok || err != nil {
			t.Fatalf("ParseTensor(%q): %v, %v", tt.in, ok, err)
		}
		if got := a.String(); got != tt.want {
			t.Errorf("ParseTensor(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		if back, _, _ := ParseTensor(a.String()); !reflect.DeepEqual(back, a) {
			t.Errorf("%q reads back as %+v, not %+v", a.String(), back, a)
		}
	}
}
