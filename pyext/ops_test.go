package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/ops"
	"github.com/godlpack/godlpack/scalar"
)

// TestOpError checks the Python exception each kernel error of godlpack.ops raises.
func TestOpError(t *testing.T) {
	tests := []struct {
		err  error
		want cpython.Exception
	}{
		{fmt.Errorf("scale: %w", scalar.ErrRange), cpython.OverflowError},
		{fmt.Errorf("copy: %w", ops.ErrOverlap), cpython.ValueError},
		{consumer.ErrReadOnly, cpython.BufferError},
		{consumer.ErrDType, cpython.TypeError},
		{errors.New("anything else"), cpython.BufferError},
	}
	for _, tt := range tests {
		if got := cpython.ExceptionOf(opError(tt.err)); got != tt.want {
			t.Errorf("opError(%v) raises %d, want %d", tt.err, got, tt.want)
		}
	}
	if opError(nil) != nil {
		t.Error("opError(nil) is not nil")
	}
}
