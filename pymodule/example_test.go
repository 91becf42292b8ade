package pymodule_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/godlpack/godlpack/cpython"
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
	// def clip_(x: SupportsDLPack, /, lo: float = ..., hi: float = ...) -> tuple[int, int]:
	//     """clip_(x: tensor[float64, writable], /, lo: float = -inf, hi: float = inf) -> tuple[int, int]
	//
	//     Clip x in place to [lo, hi]; return the counts raised and lowered.
	//     """
}

// A description New refuses, with what is wrong: the Go function takes two
// parameters where the Python list names one.
func ExampleModule_Stub_refused() {
	m := pymodule.Module{Name: "m", Items: []pymodule.Item{
		pymodule.Def("scale", "x", pymodule.F2(func(pymodule.Tensor, float64) {}), "Scale x."),
	}}
	_, err := m.Stub()
	fmt.Println(err)
	// Output: m.scale: parameters "x" name 1 parameter, and the Go function has 2
}

// A Counter sums what it is given: a Go type that NewClass binds.
type Counter struct {
	name  string
	total float64
}

func newCounter(name string) (*Counter, error) {
	if name == "" {
		return nil, errors.New("a counter needs a name")
	}
	return &Counter{name: name}, nil
}

// Add adds x and returns the total.
func (c *Counter) Add(x float64) float64 { c.total += x; return c.total }

// String is the repr of a Counter in Python.
func (c *Counter) String() string { return fmt.Sprintf("Counter(%q, total=%g)", c.name, c.total) }

// A Go type bound as a class: a constructor, a method (a method
// expression, whose first parameter is the instance), a read-only property,
// its repr from String, and pickling through its state. Its stub shows what
// Python gets.
func ExampleNewClass() {
	m := pymodule.Module{Name: "counters", Doc: "Counters.", Items: []pymodule.Item{
		pymodule.NewClass[Counter]("Counter", "Sums what it is given.",
			pymodule.Init("name: str", pymodule.F1RE(newCounter)),
			pymodule.Method("add", "x: float, /", pymodule.F2R((*Counter).Add), "Add x; return the total."),
			pymodule.Property("total", pymodule.F1R(func(c *Counter) float64 { return c.total }), pymodule.Fn{},
				"The sum so far."),
			pymodule.Pickle(pymodule.F1R2(func(c *Counter) (string, float64) { return c.name, c.total }),
				pymodule.F2R(func(name string, total float64) *Counter { return &Counter{name, total} }))),
	}}
	stub, err := m.Stub()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(stub[strings.Index(stub, "@final"):])
	// Output:
	// @final
	// class Counter:
	//     """Sums what it is given."""
	//
	//     def __new__(cls, name: str) -> Counter: ...
	//     def add(self, x: float, /) -> float:
	//         """Add x; return the total."""
	//     @property
	//     def total(self) -> float:
	//         """The sum so far."""
	//     def __reduce__(self) -> tuple[Any, ...]: ...
}

// A field that C reads in place, with no call into Go: its stub is a
// read-only property of the field's Python type.
func ExampleField() {
	m := pymodule.Module{Name: "counters", Doc: "Counters.", Items: []pymodule.Item{
		pymodule.NewClass[Counter]("Counter", "Sums what it is given.",
			pymodule.Init("name: str", pymodule.F1RE(newCounter)),
			pymodule.Field("total", func(c *Counter) *float64 { return &c.total }, "The sum so far.")),
	}}
	stub, err := m.Stub()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(stub[strings.Index(stub, "@final"):])
	// Output:
	// @final
	// class Counter:
	//     """Sums what it is given."""
	//
	//     def __new__(cls, name: str) -> Counter: ...
	//     @property
	//     def total(self) -> float:
	//         """The sum so far."""
	//     def __reduce__(self) -> tuple[Any, ...]: ...
}

// Mode says how a sum is rounded: a Go named integer type that NewEnum binds.
type Mode int

const (
	Exact Mode = iota
	Floor
)

// A Go named integer type bound as an IntEnum: a parameter of the type takes
// a member (or an int a member has), a result of the type is the member, and
// a default names a member.
func ExampleNewEnum() {
	m := pymodule.Module{Name: "sums", Doc: "Sums.", Items: []pymodule.Item{
		pymodule.NewEnum[Mode]("Mode", "How a sum is rounded.", pymodule.Value("EXACT", Exact), pymodule.Value("FLOOR", Floor)),
		pymodule.Def("next_mode", "m=Mode.EXACT, /", pymodule.F1R(func(m Mode) Mode { return (m + 1) % 2 }), "The other mode."),
	}}
	stub, err := m.Stub()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(stub[strings.Index(stub, "class Mode"):])
	// Output:
	// class Mode(enum.IntEnum):
	//     """How a sum is rounded."""
	//     EXACT = 0
	//     FLOOR = 1
	//
	// def next_mode(m: Mode | int = ..., /) -> Mode:
	//     """next_mode(m: Mode = Mode.EXACT, /) -> Mode
	//
	//     The other mode.
	//     """
}

// ErrShape is the module's exception class, a ValueError: a Go error that
// ExceptionClass.Errorf makes, or that wraps it, raises it.
var ErrShape = pymodule.NewException("ShapeError", cpython.ValueError, "A tensor of the wrong shape.")

// An exception class of the module, which the Go errors of its functions
// select.
func ExampleNewException() {
	m := pymodule.Module{Name: "shapes", Doc: "Shapes.", Items: []pymodule.Item{
		ErrShape,
		pymodule.Def("square", "x, /", pymodule.F1E(func(x pymodule.Tensor) error {
			if len(x.Shape) != 2 || x.Shape[0] != x.Shape[1] {
				return ErrShape.Errorf("a square matrix, not shape %v", x.Shape) // raises shapes.ShapeError
			}
			return nil
		}), "Refuse x unless it is a square matrix."),
	}}
	stub, err := m.Stub()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(stub[strings.Index(stub, "class ShapeError"):])
	// Output:
	// class ShapeError(ValueError):
	//     """A tensor of the wrong shape."""
	//
	// def square(x: SupportsDLPack, /) -> None:
	//     """square(x: tensor, /) -> None
	//
	//     Refuse x unless it is a square matrix.
	//     """
}

// A parameter of a Go function type takes a Python callable, which the Go
// function calls: its arguments and results convert as a bound function's
// results and arguments do, and a last error result says that the callable
// raised (the call raises that exception).
func ExampleDef_callback() {
	apply := func(x []float64, f func(float64) (float64, error)) error {
		for i := range x {
			v, err := f(x[i])
			if err != nil {
				return err
			}
			x[i] = v
		}
		return nil
	}
	m := pymodule.Module{Name: "maps", Doc: "Maps.", Items: []pymodule.Item{
		pymodule.Def("apply_", "x: tensor[writable], f, /", pymodule.F2E(apply), "Replace each element v of x by f(v)."),
	}}
	stub, err := m.Stub()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(stub[strings.Index(stub, "def apply_"):])
	// Output:
	// def apply_(x: SupportsDLPack, f: Callable[[float], float], /) -> None:
	//     """apply_(x: tensor[float64, (*), C, writable], f: Callable[[float], float], /) -> None
	//
	//     Replace each element v of x by f(v).
	//     """
}
