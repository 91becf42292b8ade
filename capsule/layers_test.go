package capsule

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

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

var (
	cComment   = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	cString    = regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`)
	cFunction  = regexp.MustCompile(`(?m)^[A-Za-z_][\w \t*]*?\b((?:gdl|godlpack)\w+)\s*\([^;{]*\)\s*\{`)
	cIdentifer = regexp.MustCompile(`\b(?:gdl|godlpack)\w+\b`)
)

// TestCFilesCallDownward holds the C files of the package to their rooms:
// no file refers to a function of a file in a room above its own, so that
// calls among them go one way and no file is the root of a circle.
func TestCFilesCallDownward(t *testing.T) {
	room := map[string]int{}
	for i, files := range rooms {
		for _, f := range files {
			room[f] = i
		}
	}
	paths, err := filepath.Glob("*.c")
	if err != nil {
		t.Fatal(err)
	}
	code := map[string]string{}
	definedIn := map[string]string{}
	for _, p := range paths {
		if _, ok := room[p]; !ok {
			t.Errorf("%s has no room in rooms: give it one", p)
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		src := cString.ReplaceAllString(cComment.ReplaceAllString(string(b), " "), `""`)
		code[p] = src
		for _, m := range cFunction.FindAllStringSubmatch(src, -1) {
			if !strings.HasPrefix(strings.TrimSpace(m[0]), "static") {
				definedIn[m[1]] = p
			}
		}
	}
	if len(definedIn) < 50 {
		t.Fatalf("found only %d functions defined in the C files: the pattern no longer reads them", len(definedIn))
	}
	for p, src := range code {
		var above []string
		for _, name := range cIdentifer.FindAllString(src, -1) {
			if d, ok := definedIn[name]; ok && d != p && room[d] > room[p] && !slices.Contains(above, name) {
				above = append(above, name)
				t.Errorf("%s (room %d) refers to %s of %s (room %d), a room above its own", p, room[p], name, d, room[d])
			}
		}
	}
}

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
