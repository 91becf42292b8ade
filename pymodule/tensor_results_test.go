package pymodule

import (
	"errors"
	"testing"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/dlpack"
)

// TestDeclaredResultsChecked: a tensor result is held to its annotation at
// each call where its Go type does not guarantee it, and only there.
func TestDeclaredResultsChecked(t *testing.T) {
	array := F0RE(func() (Array, error) { return Array{}, nil })
	slice := F0R(func() []float32 { return nil })
	for _, tt := range []struct {
		f       Function
		checked bool
	}{
		{Def("f", "", array, ""), false},
		{Def("f", "-> tensor", array, ""), false},
		{Def("f", "-> tensor[float32]", array, ""), true},
		{Def("f", "-> tensor[(*, *)]", array, ""), true},
		{Def("f", "", slice, ""), false},
		{Def("f", "-> tensor[float32, (*)]", slice, ""), false},
		{Def("f", "-> tensor[(4,)]", slice, ""), true},
	} {
		b, err := plan(tt.f, nil)
		if err != nil {
			t.Fatalf("%q: %v", tt.f.params, err)
		}
		if got := b.outs[0].checked; got != tt.checked {
			t.Errorf("%q: checked = %v, want %v", tt.f.params, got, tt.checked)
		}
	}
}

// TestHolds: what a call raises for a tensor its function returns against
// the annotation it declares.
func TestHolds(t *testing.T) {
	b, err := plan(Def("f", "-> tensor[float32|float64, (*, 3)]", F0RE(func() (Array, error) { return Array{}, nil }), ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	spec := b.outs[0].tensor
	for _, tt := range []struct {
		dt    dlpack.DataType
		shape []int64
		exc   cpython.Exception
		msg   string
	}{
		{dlpack.Float32, []int64{5, 3}, 0, ""},
		{dlpack.Float64, []int64{0, 3}, 0, ""},
		{dlpack.Int64, []int64{5, 3}, cpython.TypeError,
			"returned a 2-D int64 tensor, where its annotation says a float32 or float64 tensor of shape (*, 3)"},
		{dlpack.Float32, []int64{15}, cpython.TypeError,
			"returned a 1-D float32 tensor, where its annotation says a float32 or float64 tensor of shape (*, 3)"},
		{dlpack.Float32, []int64{5, 4}, cpython.ValueError,
			"returned a tensor of shape (5, 4), where its annotation says a float32 or float64 tensor of shape (*, 3)"},
	} {
		err := spec.holds(tt.dt, tt.shape)
		var e *cpython.Error
		switch {
		case tt.exc == 0 && err != nil:
			t.Errorf("holds(%v, %v) = %v, want nil", tt.dt, tt.shape, err)
		case tt.exc != 0 && (!errors.As(err, &e) || e.Exception != tt.exc || e.Msg != tt.msg):
			t.Errorf("holds(%v, %v) = %v, want a %v %q", tt.dt, tt.shape, err, tt.exc, tt.msg)
		}
	}
}
