package pymodule

import (
	"testing"

	"github.com/godlpack/godlpack/internal/pysig"
)

// TestWhatAParameterTakes: a refusal says the layout the parameter takes,
// any layout where it converts, and which dtypes it converts.
func TestWhatAParameterTakes(t *testing.T) {
	tests := []struct{ annotation, want string }{
		{"tensor[float32, (*, *), C]", "a C-contiguous 2-D float32 tensor"},
		{"tensor[float32, (*, *), F]", "a Fortran-contiguous 2-D float32 tensor"},
		{"tensor[float32, (*, *), C, convert]",
			"a 2-D float32 tensor (any layout; bool, integer and float dtypes converted to float32)"},
		{"tensor[float64, F, convert]", "a float64 tensor (any layout; bool, integer and float dtypes converted to float64)"},
		{"tensor[int8|float64|float32, convert]",
			"an int8, float64 or float32 tensor (any layout; bool, integer and float dtypes converted to float64)"},
		{"tensor[int32, (*, 3), C, convert]", "an int32 tensor of shape (*, 3) (any layout, converted)"},
		{"tensor[C, convert]", "a tensor (any layout, converted)"},
		{"tensor[float32, writable]", "a writable float32 tensor"},
		{"tensor[uint8, (*, *, *, *, *, *, *, *)]", "an 8-D uint8 tensor"},
		{"tensor[uint8]", "a uint8 tensor"},
		{"tensor[float32, device=cuda, convert]",
			"a float32 tensor on cuda (any layout; bool, integer and float dtypes converted to float32)"},
	}
	for _, tt := range tests {
		a, _, err := pysig.ParseTensor(tt.annotation)
		if err != nil {
			t.Fatalf("%s: %v", tt.annotation, err)
		}
		s, err := resolveTensor(a)
		if err != nil {
			t.Fatalf("%s: %v", tt.annotation, err)
		}
		if s.want != tt.want {
			t.Errorf("%s: %q, want %q", tt.annotation, s.want, tt.want)
		}
	}
}
