package capsule

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/godlpack/godlpack/internal/layers"
)

// cComment matches a C comment.
var cComment = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)

// rooms are the C files of this package by job, lowest first: a file
// refers only to functions of files in its own room or below. A new C file
// gets a room here (TestCFilesCallDownward fails until it has one).
var rooms = [][]string{
	{"errors.c", "imports.c"},                       // exceptions, and keeping one pending while Python code runs; other libraries' objects
	{"args.c", "number.c", "capsule.c", "device.c"}, // argument parsing, numbers, DLPack capsules, devices as spelled
	{"export.c", "exchange.c", "runtime.c"},         // __dlpack__; another library's exchange table; Go runtimes
	{"borrow.c"},                                    // views read in place
	{"take.c"},                                      // taking a tensor from any producer
	{"import.c"},                                    // the one import: validate, hold to the request, copy
	{"fork.c"},                                      // Go's calls of Python code, which may fork
	{"exporter.c"},                                  // exporting types' methods and our exchange table
	{"tensor.c", "tensor_pickle.c", "tensor_types.c", "dtype.c", "device_type.c"}, // the tensor object
}

// TestCFilesCallDownward holds the C files of the package to their rooms:
// no file refers to a function of a file in a room above its own, directly
// or through a header's inline function, so that calls among them go one
// way and no file is the root of a circle.
func TestCFilesCallDownward(t *testing.T) { layers.Check(t, rooms) }

// TestTensorObjectIsPrivate holds the Tensor object's struct to the tensor
// room: every other file, of this package or another, makes and reads
// Tensors through tensor.h, so that one constructor makes every one.
func TestTensorObjectIsPrivate(t *testing.T) {
	tensorRoom := rooms[len(rooms)-1]
	var files []string
	for _, pattern := range []string{"../*/*.c", "../*/*.h", "../*/*.go"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for _, p := range files {
		own := filepath.Dir(p) == "../capsule"
		if base := filepath.Base(p); own && (slices.Contains(tensorRoom, base) || base == "tensor_object.h" ||
			base == "layers_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := cComment.ReplaceAllString(string(b), " ")
		for _, private := range []string{"TensorObject", `"tensor_object.h"`, "gdl_library_types"} {
			if strings.Contains(src, private) {
				t.Errorf("%s uses %s, which only the tensor files of package capsule may", p, private)
			}
		}
	}
}
