package pymodule_test

import (
	"fmt"
	"strings"

	"github.com/godlpack/godlpack/pymodule"
)

// clip clips x in place to [lo, hi] and counts the elements it raised and lowered.
func clip(x pymodule.Tensor, lo, hi float64) (raised, lowered int64) {
	for p := range pymodule.Elements[float64](x) {
		switch {
		case *p < lo:
			*p, raised = lo, raised+1
		case *p > hi:
			*p, lowered = hi, lowered+1
		}
	}
	return raised, lowered
}

// A function bound with its Python parameters, and the stub the module's
// description writes for it (go run . -pyi rowstats.pyi in an extension's
// package main does, through Module.Main).
func ExampleDef() {
	m := pymodule.Module{Name: "rowstats", Doc: "Row statistics.", Items: []pymodule.Item{
		pymodule.Def("clip_", "x: tensor[float64, writable], /, lo=-inf, hi=inf", pymodule.F3R2(clip),
			"Clip x in place to [lo, hi]; return the counts raised and lowered."),
	}}
	stub, err := m.Stub()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(stub[strings.Index(stub, "def clip_"):])
	// Output:
	// def clip_(x: _Tensor, /, lo: float = ..., hi: float = ...) -> tuple[int, int]:
	//     """Clip x in place to [lo, hi]; return the counts raised and lowered."""
}

// A description New refuses, with what is wrong: the Go function takes two
// parameters where the Python list names one.
func ExampleModule_Stub_refused() {
	m := pymodule.Module{Name: "m", Items: []pymodule.Item{
		pymodule.Def("scale", "x", pymodule.F2(func(pymodule.Tensor, float64) {}), "Scale x."),
	}}
	_, err := m.Stub()
	fmt.Println(err)
	// Output: m.scale: parameters "x" name 1 parameters, and the Go function has 2
}
