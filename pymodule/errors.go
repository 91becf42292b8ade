package pymodule

import (
	"errors"
	"strings"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
)

// An ArgumentError is an error about one argument of a bound call, which
// the call raises in the words of the binder's own refusals:
// "f(): argument 'gamma' must have 3 elements, not 4". [ArgError] and
// [ArgErrorAt] make them, and an exception class's
// [ExceptionClass.ArgError] and [ExceptionClass.ArgErrorAt]; its chain holds
// a [*cpython.Error] of its Exception, so [cpython.ExceptionOf] reads its
// kind.
type ArgumentError struct {
	Exception cpython.Exception
	// Class, when not nil, is the exception class the error raises (its
	// Exception is then the class's base).
	Class *ExceptionClass
	// Name is the parameter's name; when it is "", Index says which
	// parameter, and the binder finds its name.
	Name  string
	Index int
	// Msg is what is wrong with the argument: "must have 3 elements, not 4".
	Msg string
}

// ArgError returns an error of kind exc about the argument of the parameter
// name, for a bound function to return: the call raises exc with the message
// "<function>(): argument '<name>' " and the formatted text, as the binder
// words its own refusals (pymodule.ArgError(cpython.ValueError, "gamma",
// "must have %d elements, not %d", 3, 4) raises "ValueError: norm(): argument
// 'gamma' must have 3 elements, not 4").
func ArgError(exc cpython.Exception, name, format string, args ...any) error {
	return &ArgumentError{Exception: exc, Name: name, Msg: fmt.Sprintf(format, args...)}
}

// ArgErrorAt is [ArgError] for the parameter at position i of the Python
// parameter list, counted from 0 (a method's self is not counted: 0 is the
// parameter after it, as it is in the Go method's own list), whose name the
// binder writes. Outside a bound call, or for a position past the list, the
// argument is named by its position from 1, as CPython names one without a
// name ("argument 2").
func ArgErrorAt(exc cpython.Exception, i int, format string, args ...any) error {
	return &ArgumentError{Exception: exc, Index: i, Msg: fmt.Sprintf(format, args...)}
}

// ArgError is [pymodule.ArgError] raising the class e.
func (e *ExceptionClass) ArgError(name, format string, args ...any) error {
	return &ArgumentError{Exception: e.base, Class: e, Name: name, Msg: fmt.Sprintf(format, args...)}
}

// ArgErrorAt is [pymodule.ArgErrorAt] raising the class e.
func (e *ExceptionClass) ArgErrorAt(i int, format string, args ...any) error {
	return &ArgumentError{Exception: e.base, Class: e, Index: i, Msg: fmt.Sprintf(format, args...)}
}

// Error returns the message, which names the argument: "argument 'gamma'
// must have 3 elements, not 4".
func (e *ArgumentError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("argument %d %s", e.Index+1, e.Msg)
	}
	return "argument '" + e.Name + "' " + e.Msg
}

// Unwrap returns the [*cpython.Error] of e's kind, which
// [cpython.ExceptionOf] reads.
func (e *ArgumentError) Unwrap() error { return &cpython.Error{Exception: e.Exception, Msg: e.Error()} }

// PythonException returns the exception class e raises, or nil for its
// Exception's own type.
func (e *ArgumentError) PythonException() *ExceptionClass { return e.Class }

// named returns the message of err, an error of b's Go function: an
// [ArgumentError] in its chain that names its parameter by position names
// it by its name.
func (b *binding) named(err error) string {
	msg := err.Error()
	var ae *ArgumentError
	if !errors.As(err, &ae) || ae.Name != "" {
		return msg
	}
	i := ae.Index
	if b.role.takesSelf() {
		i++ // the Go function's first parameter, self, is no position of the Python list
	}
	if ae.Index < 0 || i >= len(b.params) {
		return msg
	}
	named := *ae
	named.Name = b.params[i].name
	return strings.Replace(msg, ae.Error(), named.Error(), 1)
}

// goPackages are the prefixes Go packages put on their errors: a Python user never sees them.
var goPackages = [...]string{"consumer: ", "producer: ", "dlpack: ", "capsule: ", "cpython: ", "pytensor: ", "ops: ",
	"pymodule: "}

// withoutGoPackages is msg without goPackages (one by one: a strings.Replacer would link its machinery, 10 KB,
// into every extension).
func withoutGoPackages(msg string) string {
	for _, p := range goPackages {
		msg = strings.ReplaceAll(msg, p, "")
	}
	return msg
}

// exceptionOf is cpython.ExceptionOf, but an error that names no Python
// exception and none of the tensor faults (read-only, device, released)
// is a RuntimeError, as nanobind makes of a C++ exception.
func exceptionOf(err error) cpython.Exception {
	var ce *consumer.Error
	exc := cpython.ExceptionOf(err)
	if exc != cpython.BufferError || errors.As(err, &ce) || errors.Is(err, consumer.ErrReadOnly) ||
		errors.Is(err, consumer.ErrDevice) || errors.Is(err, consumer.ErrReleased) {
		return exc
	}
	var e *cpython.Error
	if errors.As(err, &e) {
		return exc
	}
	return cpython.RuntimeError
}
