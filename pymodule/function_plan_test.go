package pymodule

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/scalar"
)

// TestPlanRefusals holds Def's mistakes to what New reports: the binder
// plans each function at registration, with no Python, and says what is
// wrong with a description before any call.
func TestPlanRefusals(t *testing.T) {
	type point struct{ X, Y float64 }
	tests := []struct {
		name string
		f    Function
		want string
	}{
		{"count", Def("f", "a, b", F1(func(int) {}), ""), `parameters "a, b" name 2 parameters, and the Go function has 1`},
		// A method's instance is counted on neither side: the author named none.
		{"method count", Method("update", "", F2(func(*point, int) {}), ""),
			`parameters "" name 0 parameters, and the Go function has 1 parameter besides its first, the instance`},
		{"method count, one", Method("update", "x", F1(func(*point) {}), ""),
			`parameters "x" name 1 parameter, and the Go function has 0 parameters besides its first, the instance`},
		{"name", Def("f-g", "a", F1(func(int) {}), ""), `"f-g" is not a Python name`},
		{"syntax", Def("f", "a b", F1(func(int) {}), ""), "a b"},
		{"go type", Def("f", "p", F1(func(point) {}), ""), "parameter p: a Go pymodule.point cannot come from Python"},
		{"result type", Def("f", "", F0R(func() point { return point{} }), ""), "result 0: a Go pymodule.point cannot go to Python"},
		{"annotation", Def("f", "x: tensor[float32]", F1(func(float64) {}), ""), "parameter x: a tensor annotation on a Go float64"},
		// A result's annotation is held to the Go function's results as a parameter's to its parameters.
		{"result annotation count", Def("f", "-> int", F0(func() {}), ""), "-> int: the Go function has no result, so -> None"},
		{"results annotation count", Def("f", "-> tuple[int]", F0R2(func() (int, int) { return 0, 0 }), ""),
			"-> tuple[int] names 1 results, and the Go function has 2"},
		{"result annotation", Def("f", "-> tensor[float32]", F0R(func() int { return 0 }), ""),
			"result 0: a tensor annotation on a Go int"},
		{"result annotation items", Def("f", "-> tensor[float32, writable]", F0RE(func() (Array, error) { return Array{}, nil }), ""),
			"result 0: tensor[float32, writable]: a result's annotation names dtypes and a shape only"},
		{"result dtype", Def("f", "-> tensor[float33]", F0RE(func() (Array, error) { return Array{}, nil }), ""),
			`result 0: unknown dtype "float33"`},
		{"slice result dtype", Def("f", "-> tensor[float64]", F0R(func() []float32 { return nil }), ""),
			"result 0: a Go []float32 is a 1-D float32 tensor, not tensor[float64]"},
		{"slice result shape", Def("f", "-> tensor[(*, *)]", F0R(func() []float32 { return nil }), ""),
			"result 0: a Go []float32 is a 1-D float32 tensor, not tensor[(*, *)]"},
		{"constructor result", Function{name: "__init__", params: "n -> tensor", fn: F1R(func(int) *point { return nil }), role: roleInit},
			"-> tensor: a constructor returns its instance, and declares no result"},
		{"slice annotation", Def("f", "x: tensor[float32]", F1(func([]float64) {}), ""),
			"parameter x: a Go []float64 takes a 1-D C-contiguous float64 tensor: its annotation may only be tensor[writable]"},
		{"slice of int", Def("f", "x", F1(func([]int) {}), ""), "parameter x: a Go []int cannot come from Python"},
		{"nan default", Def("f", "x=nan", F1(func(float64) {}), ""), "parameter x: default nan: a NaN default cannot be shown"},
		{"bad default", Def("f", "x=1.5", F1(func(int) {}), ""), "parameter x: default 1.5 is not an int"},
		{"None default", Def("f", "x=None", F1(func(int) {}), ""), "parameter x: default None needs an Optional parameter"},
		{"number default", Def("f", "x='1'", F1(func(scalar.Scalar) {}), ""),
			"parameter x: default '1' is not a number: want a bool, an int of 64 bits, a float or a complex literal"},
		{"dtype", Def("f", "x: tensor[float33]", F1(func(Tensor) {}), ""), `parameter x: unknown dtype "float33"`},
		{"device", Def("f", "x: tensor[device=tpu9]", F1(func(Tensor) {}), ""), `parameter x: unknown device "tpu9"`},
		{"required after default", Def("f", "*, a=1, b", F2(func(int, int) {}), ""),
			"parameter b: a required keyword-only parameter after one with a default is not supported"},
		{"error in the middle", Def("f", "", F0R2(func() (error, int) { return nil, 0 }), ""),
			"result 0: an error result must be the last, alone of its type"},
		{"too many parameters", Def("f", manyParams(17), Fn{in: make([]reflect.Type, 17)}, ""), "17 parameters: at most 16"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.f.role == roleMethod || tt.f.role == roleInit {
				tt.f.class = NewClass[point]("P", "").def
			}
			_, err := plan(tt.f, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("plan(%s) = %v, want an error containing %q", tt.name, err, tt.want)
			}
		})
	}
}

// TestStubRefusesWhatNewRefuses: a stub is never written for a description
// the import would refuse.
func TestStubRefusesWhatNewRefuses(t *testing.T) {
	type point struct{ X, Y float64 }
	for _, it := range []Item{Def("f", "x=None", F1(func(int) {}), ""), Const("P", point{}), Const("N", nil)} {
		if _, err := (&Module{Name: "m", Items: []Item{it}}).Stub(); err == nil {
			t.Errorf("Stub of %+v: no error", it)
		}
	}
}

// TestTypeNames checks the words of TypeErrors and the stub's types, kinds.go's table.
func TestTypeNames(t *testing.T) {
	b, err := plan(Def("f", "a, b=None, c=None, x=None", F4(func(int8, Optional[float32], cpython.Object,
		Optional[Tensor]) {
	}), ""), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names, types, shown []string
	for i := range b.params {
		names = append(names, b.params[i].typeName())
		types = append(types, (&stubber{}).paramType(&b.params[i], false))
		shown = append(shown, (&stubber{}).paramType(&b.params[i], true))
	}
	if got, want := fmt.Sprint(names), "[an int a float or None an object a tensor (an object with __dlpack__) or None]"; got != want {
		t.Errorf("typeNames = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(types), "[int | SupportsIndex float | None Any SupportsDLPack | None]"; got != want {
		t.Errorf("pyTypes = %s, want %s", got, want)
	}
	if got, want := fmt.Sprint(shown), "[int float | None Any tensor | None]"; got != want {
		t.Errorf("shown types = %s, want %s", got, want)
	}
}

// manyParams is a parameter list of n names.
func manyParams(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	return strings.Join(names, ", ")
}
