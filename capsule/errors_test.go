package capsule

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

func TestRequestInC(t *testing.T) {
	for _, tt := range []struct {
		r    Request
		copy int
	}{
		{Request{}, -1},
		{Request{Copy: CopyAlways, Writable: true}, 1},
		{Request{Copy: CopyNever}, 0},
	} {
		c := tt.r.c(nil)
		if int(c.copy) != tt.copy || bool(c.writable) != tt.r.Writable {
			t.Errorf("Request%+v in C: copy %d, writable %v", tt.r, c.copy, c.writable)
		}
	}
}

func TestPythonErrorWrapsErrPython(t *testing.T) {
	err := PythonError("reading the factor")
	if !errors.Is(err, ErrPython) || err.Error() != "capsule: a Python exception is set: reading the factor failed" {
		t.Errorf("PythonError = %v", err)
	}
	if errors.Is(ErrForked, ErrPython) {
		t.Error("ErrForked wraps ErrPython: a bound call would look for an exception that is not set")
	}
}
