package capsule

import (
	"testing"

	"github.com/godlpack/godlpack/testing/layers"
)

// rooms are the C files of this package by job, lowest first: a file
// refers only to functions of files in its own room or below. A new C file
// gets a room here (TestCFilesCallDownward fails until it has one).
var rooms = [][]string{
	{"capsule.c", "device.c"},  // DLPack capsules, devices as spelled
	{"export.c", "exchange.c"}, // __dlpack__; another library's exchange table
	{"borrow.c"},               // views read in place
	{"take.c"},                 // taking a tensor from any producer
	{"import.c"},               // the one import: validate, hold to the request, copy; Go's Take and Import
	{"exporter.c"},             // exporting types' methods and our exchange table
}

// TestCFilesCallDownward holds the C files of the package to their rooms:
// no file refers to a function of a file in a room above its own, directly
// or through a header's inline function, so that calls among them go one
// way and no file is the root of a circle.
func TestCFilesCallDownward(t *testing.T) { layers.Check(t, rooms) }
