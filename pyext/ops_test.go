package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/consumer"
	"github.com/godlpack/godlpack/ops"
	"github.com/godlpack/godlpack/scalar"
)

// TestOpError checks the Python exception each kernel error of godlpack.ops raises.
func TestOpError(t *testing.T) {
	tests := []struct {
		err  error
		want capsule.Exception
	}{
		{fmt.Errorf("scale: %w", scalar.ErrRange), capsule.OverflowError},
		{fmt.Errorf("copy: %w", ops.ErrOverlap), capsule.ValueError},
		{consumer.ErrReadOnly, capsule.BufferError},
		{consumer.ErrDType, capsule.TypeError},
		{errors.New("anything else"), capsule.BufferError},
	}
	for _, tt := range tests {
		if got := capsule.ExceptionOf(opError(tt.err)); got != tt.want {
			t.Errorf("opError(%v) raises %d, want %d", tt.err, got, tt.want)
		}
	}
	if opError(nil) != nil {
		t.Error("opError(nil) is not nil")
	}
}
