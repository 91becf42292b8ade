package pytensor

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/godlpack/godlpack/testing/layers"
)

// cComment matches a C comment.
var cComment = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)

// rooms are the C files of this package by job, lowest first: a file
// refers only to functions of files in its own room or below. A new C file
// gets a room here (TestCFilesCallDownward fails until it has one).
var rooms = [][]string{
	// The DType, Device and Tensor types, the Tensor's values, buffer and pickling, and the types made from their
	// specs and named after their module (whose record, gdl_library_types, the others read): one object, one room.
	{"dtype.c", "device_type.c", "tensor.c", "tensor_values.c", "tensor_buffer.c", "tensor_pickle.c", "tensor_types.c"},
}

// TestCFilesCallDownward holds the C files of the package to their rooms:
// no file refers to a function of a file in a room above its own, directly
// or through a header's inline function.
func TestCFilesCallDownward(t *testing.T) { layers.Check(t, rooms) }

// TestTensorObjectIsPrivate holds the Tensor object's struct to this
// package's C files: every other file, of this package or another, makes and
// reads Tensors through tensor.h, so that one constructor makes every one.
func TestTensorObjectIsPrivate(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../*/*.c", "../*/*.h", "../*/*.go"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	for _, p := range files {
		own := filepath.Dir(p) == "../pytensor"
		if base := filepath.Base(p); own && (strings.HasSuffix(base, ".c") || base == "tensor_object.h" ||
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
				t.Errorf("%s uses %s, which only the C files of package pytensor may", p, private)
			}
		}
	}
}
