package cpython

import (
	"errors"
	"fmt"
	"testing"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/producer"
)

func TestExceptionOf(t *testing.T) {
	tests := []struct {
		err  error
		want Exception
	}{
		{Errorf(TypeError, "t"), TypeError},
		{fmt.Errorf("wrapped: %w", Errorf(OverflowError, "o")), OverflowError},
		{Errorf(StopIteration, "the end"), StopIteration},
		{producer.ErrNoMemory, MemoryError},
		{fmt.Errorf("x: %w", consumer.ErrNoMemory), MemoryError},
		{consumer.ErrDType, TypeError},
		{consumer.ErrLayout, ValueError},
		{consumer.ErrReadOnly, BufferError},
		{errors.New("anything"), BufferError},
	}
	for _, tt := range tests {
		if got := ExceptionOf(tt.err); got != tt.want {
			t.Errorf("ExceptionOf(%v) = %d, want %d", tt.err, got, tt.want)
		}
	}
}

// TestExceptionNames holds errors.c's table to the Go constants: every kind
// has its Python name, and a value past the table none.
func TestExceptionNames(t *testing.T) {
	names := map[Exception]string{
		0:                   "Exception",
		TypeError:           "TypeError",
		ValueError:          "ValueError",
		BufferError:         "BufferError",
		MemoryError:         "MemoryError",
		OverflowError:       "OverflowError",
		RuntimeError:        "RuntimeError",
		IndexError:          "IndexError",
		KeyError:            "KeyError",
		NotImplementedError: "NotImplementedError",
		AttributeError:      "AttributeError",
		StopIteration:       "StopIteration",
	}
	if len(names) != exceptionKinds {
		t.Errorf("%d kinds named here, %d in cpython.h", len(names), exceptionKinds)
	}
	for e, want := range names {
		if got := e.String(); got != want {
			t.Errorf("Exception(%d).String() = %q, want %q", int(e), got, want)
		}
	}
	for _, e := range []Exception{-1, Exception(exceptionKinds)} {
		if got, want := e.String(), fmt.Sprintf("Exception(%d)", int(e)); got != want {
			t.Errorf("Exception(%d).String() = %q, want %q", int(e), got, want)
		}
	}
}

func TestPythonErrorWrapsErrPython(t *testing.T) {
	err := PythonError("reading the factor")
	if !errors.Is(err, ErrPython) || err.Error() != "cpython: a Python exception is set: reading the factor failed" {
		t.Errorf("PythonError = %v", err)
	}
	if errors.Is(ErrForked, ErrPython) {
		t.Error("ErrForked wraps ErrPython: a bound call would look for an exception that is not set")
	}
}
