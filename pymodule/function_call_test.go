package pymodule

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
)

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
