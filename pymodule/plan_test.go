package pymodule

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/godlpack/godlpack/consumer"
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

// TestExceptionOf checks which Python exception a Go function's error raises.
func TestExceptionOf(t *testing.T) {
	tests := []struct {
		err  error
		want cpython.Exception
	}{
		{errors.New("plain"), cpython.RuntimeError}, // as nanobind makes of a C++ exception
		{cpython.Errorf(cpython.ValueError, "v"), cpython.ValueError},
		{fmt.Errorf("wrapped: %w", cpython.Errorf(cpython.OverflowError, "o")), cpython.OverflowError},
		{consumer.ErrReadOnly, cpython.BufferError},
		{fmt.Errorf("x: %w", consumer.ErrDevice), cpython.BufferError},
		{consumer.ErrDType, cpython.TypeError},
	}
	for _, tt := range tests {
		if got := exceptionOf(tt.err); got != tt.want {
			t.Errorf("exceptionOf(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

// TestFailCall checks the message and the exception a failed call writes.
func TestFailCall(t *testing.T) {
	b := &binding{Function: Function{name: "f"}}
	tests := []struct {
		err     error
		message string
		error   int
	}{
		{cpython.Errorf(cpython.ValueError, "a bad value"), "f(): a bad value", int(cpython.ValueError)},
		{errors.New("f(): names the function already"), "f(): names the function already", int(cpython.RuntimeError)},
		{fmt.Errorf("consumer: wrapped: %w", errors.New("x")), "f(): wrapped: x", int(cpython.RuntimeError)},
		{cpython.PythonError("reading"), "f(): a Python exception is set: reading failed", pythonErrorKind},
		{cpython.ErrForked, "", forkedKind},
		// Any bytes, whole: no UTF-8 needed, a NUL kept, and no cut however long (C memory past the call's room).
		{errors.New("bad \xff\x00byte"), "f(): bad \xff\x00byte", int(cpython.RuntimeError)},
		{errors.New(strings.Repeat("é", 600) + "end"), "f(): " + strings.Repeat("é", 600) + "end", int(cpython.RuntimeError)},
	}
	for _, tt := range tests {
		var c call
		b.failCall(&c, tt.err)
		if got := cString(&c); got != tt.message || int(c.error) != tt.error {
			t.Errorf("failCall(%v) wrote %q, %d; want %q, %d", tt.err, got, c.error, tt.message, tt.error)
		}
	}
}

// cString is the message a call holds.
func cString(c *call) string {
	if c.message_len == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(c.text)), c.message_len))
}

// manyParams is a parameter list of n names.
func manyParams(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("p%d", i)
	}
	return strings.Join(names, ", ")
}

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

// TestNewArrayAllocatesOnce holds NewArray to one Go heap allocation, its
// producer.Buffer: its memory is C's and a shape of up to four dimensions
// stays in the Array.
func TestNewArrayAllocatesOnce(t *testing.T) {
	for _, shape := range [][]int64{{}, {4}, {2, 3, 4, 5}} {
		n := testing.AllocsPerRun(100, func() {
			a, _, _ := NewArray[float32](shape...)
			a.Release()
		})
		if n > 1 {
			t.Errorf("NewArray(%v) and Release: %v allocations, want 1", shape, n)
		}
	}
}

// TestFieldAccessors: a Field's accessor is called once, on a zero value, and
// must return the address of a field of its argument; the class's check says
// what is wrong with one that does not, before the module is made.
func TestFieldAccessors(t *testing.T) {
	type point struct {
		X, Y float64
		N    int32
	}
	type holder struct{ p *point }
	var global float64
	tests := []struct {
		name  string
		class Class
		want  string // "" for no error
	}{
		{"field", NewClass[point]("P", "", Field("y", func(p *point) *float64 { return &p.Y }, "")), ""},
		{"last", NewClass[point]("P", "", Field("n", func(p *point) *int32 { return &p.N }, "")), ""},
		{"through a pointer", NewClass[holder]("H", "", Field("x", func(h *holder) *float64 { return &h.p.X }, "")),
			"class H: field x: its accessor panicked on a zero pymodule.holder"},
		{"not in the value", NewClass[point]("P", "", Field("g", func(*point) *float64 { return &global }, "")),
			"class P: field g: its accessor must return the address of a field of its argument, a *pymodule.point"},
		{"another type's", NewClass[holder]("H", "", Field("y", func(p *point) *float64 { return &p.Y }, "")),
			"class H: field y: a field of pymodule.point, in the class of pymodule.holder"},
		{"no size", NewClass[struct{}]("Token", ""),
			"class Token: a Go type of no size (struct {}) has no address of its own for each value: give it a field"},
		{"an array of no size", NewClass[[0]int64]("Empty", ""), "class Empty: a Go type of no size ([0]int64)"},
	}
	for _, tt := range tests {
		err := tt.class.def.check()
		if tt.want == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: check() = %v, want %q", tt.name, err, tt.want)
		}
	}
	if f := NewClass[point]("P", "", Field("n", func(p *point) *int32 { return &p.N }, "")).def.props[0].field; f.offset != 16 || f.kind != kindInt32 {
		t.Errorf("field n: offset %d, kind %d; want 16 and kindInt32", f.offset, f.kind)
	}
}

// TestSlotPins checks the pins of values whose fields C reads: one per slot
// however many reads, let go with the slot, and made again for the slot's
// next value. A pin that outlived its slot would keep its value alive.
func TestSlotPins(t *testing.T) {
	table := &classTable{def: &classDef{name: "Probe"}}
	type value struct {
		n    int64
		name string // a Go pointer inside: the kind of value cgo would refuse to hand C unpinned
	}
	freed := make(chan int64, 2)
	hold := func(n int64) int32 {
		v := &value{n: n, name: fmt.Sprint(n)}
		runtime.AddCleanup(v, func(n int64) { freed <- n }, n)
		s, err := table.hold(unsafe.Pointer(v))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	first := hold(1)
	table.pin(first)
	table.pin(first)
	table.release(first)
	second := hold(2)
	if second != first {
		t.Fatalf("the released slot %d was not reused: got %d", first, second)
	}
	if v := (*value)(table.pin(second)); v.n != 2 || v.name != "2" {
		t.Fatalf("pin(%d) = %+v, want the slot's new value 2", second, *v)
	}
	if pin := &table.pins[0][second]; !pin.pinned {
		t.Fatalf("slot %d's new value is not pinned", second)
	}
	table.release(second)
	if pin := &table.pins[0][second]; pin.pinned {
		t.Fatalf("slot %d is still pinned after its release", second)
	}
	got := map[int64]bool{}
	for deadline := time.Now().Add(10 * time.Second); len(got) < 2 && time.Now().Before(deadline); {
		runtime.GC()
		select {
		case n := <-freed:
			got[n] = true
		case <-time.After(10 * time.Millisecond):
		}
	}
	if len(got) != 2 {
		t.Fatalf("values freed after their slots' release: %v, want 1 and 2", got)
	}
}

// TestNewArrayShape: NewArray counts the elements of any shape it is given,
// refusing with a ValueError a negative dimension and a shape whose bytes
// would pass 2**62, with a MemoryError one that malloc cannot serve, and
// making an empty array of a shape with a zero dimension, however large the
// others.
func TestNewArrayShape(t *testing.T) {
	const succeeds cpython.Exception = -1
	for _, tt := range []struct {
		shape []int64
		n     int               // the elements, when it succeeds
		exc   cpython.Exception // the error's kind, when it fails
	}{
		{nil, 1, succeeds},
		{[]int64{3, 4}, 12, succeeds},
		{[]int64{0, 1 << 62}, 0, succeeds},
		{[]int64{1 << 62, 0, 1 << 62}, 0, succeeds},
		{[]int64{-1}, 0, cpython.ValueError},
		{[]int64{0, -1}, 0, cpython.ValueError},
		{[]int64{1 << 30, 1 << 30}, 0, cpython.MemoryError}, // 2**62 bytes: not refused, but no malloc serves it
		{[]int64{1 << 31, 1 << 31}, 0, cpython.ValueError},  // 2**62 elements, 2**64 bytes
		{[]int64{1 << 32, 1 << 32}, 0, cpython.ValueError},  // a product past 64 bits
		{[]int64{1 << 62, 2}, 0, cpython.ValueError},
		{[]int64{3, 1 << 61, 1 << 62}, 0, cpython.ValueError}, // past 64 bits, then multiplied again
	} {
		a, s, err := NewArray[float32](tt.shape...)
		if err != nil {
			if got := cpython.ExceptionOf(err); got != tt.exc {
				t.Errorf("NewArray(%v): %v (%v), want %v", tt.shape, err, got, tt.exc)
			}
			continue
		}
		a.Release()
		if tt.exc != succeeds || len(s) != tt.n {
			t.Errorf("NewArray(%v) made %d elements, want %d and error %v", tt.shape, len(s), tt.n, tt.exc)
		}
	}
}
