package cpython

import (
	"testing"

	"github.com/godlpack/godlpack/testing/layers"
)

// rooms are the C files of this package by job, lowest first: a file
// refers only to functions of files in its own room or below. A new C file
// gets a room here (TestCFilesCallDownward fails until it has one).
var rooms = [][]string{
	{"errors.c", "imports.c", "names.c"}, // exceptions, and keeping one pending while Python code runs; other libraries' objects; interned names
	{"args.c", "number.c"},               // argument parsing, numbers
	{"runtime.c", "fork.c"},              // the Go runtimes of the process; Go's calls of Python code, which may fork
}

// TestCFilesCallDownward holds the C files of the package to their rooms:
// no file refers to a function of a file in a room above its own, directly
// or through a header's inline function.
func TestCFilesCallDownward(t *testing.T) { layers.Check(t, rooms) }
