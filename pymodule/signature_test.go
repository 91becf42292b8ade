package pymodule

import (
	"reflect"
	"testing"
)

// TestShownSignatures holds what Python tools show of a bound function to
// its description: the stub's docstring line (annotations and defaults as
// written), the source __signature__ evaluates, and the stub's result type.
func TestShownSignatures(t *testing.T) {
	type point struct{ X float64 }
	type mode int
	array := F1RE(func(Tensor) (Array, error) { return Array{}, nil })
	foreign := NewEnum[mode]("Mode", "", Value("A", mode(0))).def
	foreign.module = "other"
	tests := []struct {
		name                string
		f                   Function
		doc, python, result string
	}{
		{"numpy", Def("norms", "x: tensor[float32, (*, *)], / -> tensor[float32, (*)]", array, "").Returning(AsNumPy),
			"norms(x: tensor[float32, (*, *)], /) -> numpy.ndarray[float32, (*)]",
			`def signature(x: "tensor[float32, (*, *)]", /) -> "numpy.ndarray[float32, (*)]": pass`,
			"numpy.ndarray[tuple[int], numpy.dtype[numpy.float32]]"},
		{"numpy, dtypes", Def("f", "x -> tensor[float32|float64, ()]", array, "").Returning(AsNumPy),
			"f(x: tensor) -> numpy.ndarray[float32|float64, ()]",
			`def signature(x: "tensor") -> "numpy.ndarray[float32|float64, ()]": pass`,
			"numpy.ndarray[tuple[()], numpy.dtype[numpy.float32 | numpy.float64]]"},
		{"numpy, a dtype NumPy's typing lacks", Def("f", "x -> tensor[bfloat16, (*, 3)]", array, "").Returning(AsNumPy),
			"f(x: tensor) -> numpy.ndarray[bfloat16, (*, 3)]",
			`def signature(x: "tensor") -> "numpy.ndarray[bfloat16, (*, 3)]": pass`,
			"numpy.ndarray[tuple[int, int], numpy.dtype[Any]]"},
		{"numpy, undeclared", Def("f", "x: tensor[device=any, writable]", array, "").Returning(AsNumPy),
			"f(x: tensor[writable, device=any]) -> numpy.ndarray",
			`def signature(x: "tensor[writable, device=any]") -> "numpy.ndarray": pass`,
			"numpy.ndarray[tuple[int, ...], numpy.dtype[Any]]"},
		{"a slice, as the module's Tensor", Def("f", "n=2, *, lo=-inf", F2R(func(int, float64) []float64 { return nil }), ""),
			"f(n: int = 2, *, lo: float = -inf) -> Tensor[float64, (*)]",
			`def signature(n: "int" = 2, *, lo: "float" = -1e999) -> "Tensor[float64, (*)]": pass`,
			"Tensor"},
		{"torch, a tuple", Def("f", "x: tensor[C, convert], / -> tuple[tensor[int64, (3)], int]",
			F1R2(func(Tensor) ([]int64, int) { return nil, 0 }), "").Returning(AsTorch),
			"f(x: tensor[C, convert], /) -> tuple[torch.Tensor[int64, (3)], int]",
			`def signature(x: "tensor[C, convert]", /) -> "tuple[torch.Tensor[int64, (3)], int]": pass`,
			"tuple[torch.Tensor, int]"},
		{"a slice parameter", Def("f", "x, y=None", F2(func([]float32, Optional[Tensor]) {}), ""),
			"f(x: tensor[float32, (*), C, convert], y: tensor | None = None) -> None",
			`def signature(x: "tensor[float32, (*), C, convert]", y: "tensor | None" = None) -> None: pass`, ""},
		{"a method", Method("scale", "a, /", F2R(func(*point, float64) float64 { return 0 }), ""),
			"scale(self, a: float, /) -> float", `def signature(self, a: "float", /) -> "float": pass`, "float"},
		{"a method, by keyword", Method("scale", "a", F2(func(*point, float64) {}), ""),
			"scale(self, /, a: float) -> None", `def signature(self, /, a: "float") -> None: pass`, ""},
		{"an enum of another module", Def("f", "m=Mode.A", F1(func(mode) {}), ""),
			"f(m: other.Mode = other.Mode.A) -> None",
			"import other\n" + `def signature(m: "other.Mode" = other.Mode.A) -> None: pass`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &scope{module: "m", enums: map[reflect.Type]*enumDef{foreign.typ: foreign}}
			if tt.f.role == roleMethod {
				tt.f.class = NewClass[point]("P", "").def
				sc.classes = map[reflect.Type]*classDef{tt.f.class.typ: tt.f.class}
			}
			b, err := plan(tt.f, sc)
			if err != nil {
				t.Fatal(err)
			}
			st := &stubber{module: "m", imports: map[string]bool{}}
			if got := b.docSignature(st); got != tt.doc {
				t.Errorf("docSignature = %q, want %q", got, tt.doc)
			}
			if got := b.pythonSignature(st); got != tt.python+"\n" {
				t.Errorf("pythonSignature = %q, want %q", got, tt.python+"\n")
			}
			if got := st.returns(b, false); tt.result != "" && got != tt.result {
				t.Errorf("the stub's result type = %q, want %q", got, tt.result)
			}
		})
	}
}

// TestTextSignature checks what inspect.signature reads of a function.
func TestTextSignature(t *testing.T) {
	tests := []struct{ params, want string }{
		{"", "f($module)"},
		{"x, /, lo=-inf, hi=inf", "f($module, x, /, lo=-1e999, hi=1e999)"},
		{"a, *, b=2", "f($module, a, *, b=2)"},
		{"*, s='-'", "f($module, *, s='-')"},
	}
	for _, tt := range tests {
		fn := map[string]Fn{
			"":                      F0(func() {}),
			"x, /, lo=-inf, hi=inf": F3(func(Tensor, float64, float64) {}),
			"a, *, b=2":             F2(func(int, int) {}),
			"*, s='-'":              F1(func(string) {}),
		}[tt.params]
		b, err := plan(Def("f", tt.params, fn, ""), nil)
		if err != nil {
			t.Fatalf("plan(%q): %v", tt.params, err)
		}
		if got := b.textSignature(); got != tt.want {
			t.Errorf("textSignature of %q = %q, want %q", tt.params, got, tt.want)
		}
	}
}
