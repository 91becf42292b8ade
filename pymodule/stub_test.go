package pymodule

import (
	"strings"
	"testing"
)

// TestStubTensorClasses checks that a module's stub holds Tensor, DType and
// Device only when its functions hand Tensors to Python, as the module does.
func TestStubTensorClasses(t *testing.T) {
	arange := F1RE(func(n int) (Array, error) {
		a, _, err := NewArray[float32](int64(n))
		return a, err
	})
	for _, tt := range []struct {
		name string
		f    Function
		want bool
	}{
		{"numpy results", Def("f", "n", arange, "").Returning(AsNumPy), false},
		{"torch results", Def("f", "n", arange, "").Returning(AsTorch), false},
		{"no tensor result", Def("f", "x", F1R(func(x Tensor) int { return len(x.Shape) }), ""), false},
		{"tensor results", Def("f", "n", arange, ""), true},
		{"a callback taking tensors", Def("f", "g", F1(func(func(Array)) {}), ""), true},
	} {
		stub, err := (&Module{Name: "m", Items: []Item{tt.f}}).Stub()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got := strings.Contains(stub, "\nclass Tensor:"); got != tt.want {
			t.Errorf("%s: the stub holds class Tensor: %v, want %v", tt.name, got, tt.want)
		}
	}
}
