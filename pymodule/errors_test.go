package pymodule

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
)

// TestArgumentErrors: an error about an argument names it as the binder's
// own refusals do, by its name or by its position (self not counted), and
// keeps its kind through wrapping.
func TestArgumentErrors(t *testing.T) {
	type gauge struct{ v float64 }
	fn := plan1(t, Def("norm", "x, gamma, /, *, eps=0.5", F3(func(Tensor, []float32, float64) {}), ""), nil)
	method := Method("scale", "x, gamma", F3(func(*gauge, Tensor, []float32) {}), "")
	method.class = NewClass[gauge]("Gauge", "").def
	m := plan1(t, method, &scope{classes: map[reflect.Type]*classDef{method.class.typ: method.class}})
	tests := []struct {
		name string
		b    *binding
		err  error
		exc  cpython.Exception
		want string
	}{
		{"by name", fn, ArgError(cpython.ValueError, "gamma", "must have %d elements, not %d", 3, 4), cpython.ValueError,
			"norm(): argument 'gamma' must have 3 elements, not 4"},
		{"by position", fn, ArgErrorAt(cpython.IndexError, 1, "is empty"), cpython.IndexError,
			"norm(): argument 'gamma' is empty"},
		{"keyword-only, by position", fn, ArgErrorAt(cpython.KeyError, 2, "is not a key"), cpython.KeyError,
			"norm(): argument 'eps' is not a key"},
		{"a method's position skips self", m, ArgErrorAt(cpython.TypeError, 0, "is wrong"), cpython.TypeError,
			"Gauge.scale(): argument 'x' is wrong"},
		{"a method's last", m, ArgErrorAt(cpython.OverflowError, 1, "is too big"), cpython.OverflowError,
			"Gauge.scale(): argument 'gamma' is too big"},
		{"wrapped", fn, fmt.Errorf("loading: %w", ArgErrorAt(cpython.AttributeError, 0, "has no rows")),
			cpython.AttributeError, "norm(): loading: argument 'x' has no rows"},
		{"past the list", fn, ArgErrorAt(cpython.ValueError, 3, "is extra"), cpython.ValueError,
			"norm(): argument 4 is extra"},
		{"negative", fn, ArgErrorAt(cpython.ValueError, -1, "is before"), cpython.ValueError,
			"norm(): argument 0 is before"},
		{"a name not of the list", fn, ArgError(cpython.NotImplementedError, "delta", "is not yet read"),
			cpython.NotImplementedError, "norm(): argument 'delta' is not yet read"},
		{"stop", fn, ArgErrorAt(cpython.StopIteration, 0, "is spent"), cpython.StopIteration,
			"norm(): argument 'x' is spent"},
		// A class not yet made raises its base; bindtest and tilekit raise made ones.
		{"a class's, by position", m, NewException("E", cpython.KeyError, "").ArgErrorAt(1, "is no key"),
			cpython.KeyError, "Gauge.scale(): argument 'gamma' is no key"},
		{"a class's, by name", fn, NewException("E", cpython.IndexError, "").ArgError("x", "is past the end"),
			cpython.IndexError, "norm(): argument 'x' is past the end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c call
			tt.b.failCall(&c, tt.err)
			if exc, msg := cpython.Exception(c.error), cString(&c); exc != tt.exc || msg != tt.want {
				t.Errorf("raises %v(%q), want %v(%q)", exc, msg, tt.exc, tt.want)
			}
		})
	}
}

// TestArgumentErrorOutsideACall: the error stands alone too, its kind read
// by cpython.ExceptionOf.
func TestArgumentErrorOutsideACall(t *testing.T) {
	tests := []struct {
		err  error
		exc  cpython.Exception
		want string
	}{
		{ArgError(cpython.ValueError, "gamma", "must be %s", "positive"), cpython.ValueError, "argument 'gamma' must be positive"},
		{ArgErrorAt(cpython.IndexError, 0, "is out of range"), cpython.IndexError, "argument 1 is out of range"},
		{fmt.Errorf("w: %w", ArgError(cpython.KeyError, "k", "is missing")), cpython.KeyError, "w: argument 'k' is missing"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
		if got := cpython.ExceptionOf(tt.err); got != tt.exc {
			t.Errorf("ExceptionOf(%v) = %v, want %v", tt.err, got, tt.exc)
		}
		var ae *ArgumentError
		if !errors.As(tt.err, &ae) {
			t.Errorf("%v holds no *ArgumentError", tt.err)
		}
	}
}

// TestExceptionBases: every kind is a base an exception class may have, its
// stub naming it; a value that is no kind is refused by New and Stub alike.
func TestExceptionBases(t *testing.T) {
	for e := cpython.Exception(0); e <= cpython.StopIteration; e++ {
		c := NewException("E", e, "")
		if err := c.check(); err != nil {
			t.Errorf("NewException(E, %v): %v", e, err)
		}
		if got, want := c.stub(), "class E("+e.String()+"): ...\n"; got != want {
			t.Errorf("stub = %q, want %q", got, want)
		}
	}
	_, err := (&Module{Name: "m", Items: []Item{NewException("E", cpython.StopIteration+1, "")}}).Stub()
	if err == nil || !strings.Contains(err.Error(), "exception E: its base, Exception(12), is no kind of cpython.Exception") {
		t.Errorf("Stub with a base past the kinds: %v", err)
	}
}

func plan1(t *testing.T, f Function, sc *scope) *binding {
	t.Helper()
	b, err := plan(f, sc)
	if err != nil {
		t.Fatal(err)
	}
	return b
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
