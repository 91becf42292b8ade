package pymodule

import (
	"testing"

	"github.com/godlpack/godlpack/testing/layers"
)

// rooms are the C files of this package by job, lowest first: a file
// refers only to functions of files in its own room or below. A new C file
// gets a room here (TestCFilesCallDownward fails until it has one).
var rooms = [][]string{
	{"basics.c"},                               // copies into C memory, None, ImportError
	{"class_instances.c"},                      // the instances of classes, their slots and holds
	{"buffer_views.c"},                         // views of Buffers, keeping their instances alive
	{"function_args.c", "function_results.c"},  // a call's arguments and results, converted
	{"function_call.c", "function_callback.c"}, // the bound call; a callback's call
	{"special.c"},                              // special methods: the slots they fill
	{"function.c", "signature.c", "class.c"},   // the function object, its __signature__; a class's type
	{"module.c"},                               // a module and its functions' records
}

// TestCFilesCallDownward holds the C files of the package to their rooms:
// no file refers to a function of a file in a room above its own, directly
// or through a header's inline function.
func TestCFilesCallDownward(t *testing.T) { layers.Check(t, rooms) }
