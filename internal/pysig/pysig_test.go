package pysig

import (
	"reflect"
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
