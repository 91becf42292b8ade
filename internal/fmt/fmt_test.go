package fmt_test

import (
	"errors"
	stdfmt "fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/godlpack/godlpack/internal/fmt"
)

type code uint8 // a named integer with a String method, as dlpack.DataTypeCode

func (c code) String() string { return [...]string{"int", "uint", "float"}[c] }

type shape struct { // a struct of a named type
	Dims []int64
	Name string
	ok   bool
}

type nilStringer struct{ s string }

func (n *nilStringer) String() string { return n.s } // panics on a nil receiver

type device struct{ Type, ID int32 }

func (d device) String() string { return stdfmt.Sprintf("dev%d:%d", d.Type, d.ID) }

// TestSprintfAsFmt holds Sprintf to fmt.Sprintf on the verbs, flags and
// operands godlpack's packages format.
func TestSprintfAsFmt(t *testing.T) {
	var nilErr error
	var nilPtr *nilStringer
	tests := []struct {
		format string
		args   []any
	}{
		{"plain %% text", nil},
		{"%v %s %d %q", []any{"a", "b c", -42, "q\"uote\n"}},
		{"%d %d %d %d %d %v", []any{int8(-8), int16(300), int32(-1 << 31), int64(-1 << 63), uint64(1<<64 - 1), uint8(255)}},
		{"%v %d %x %#x %X %#X", []any{uintptr(0xbeef), int(-3), 255, uint64(0xdeadbeef), 3054, uint32(48879)}},
		{"%q %q %c", []any{byte(')'), '\'', 'é'}},
		{"%g %v %g %+g %v %g", []any{1.5, float32(0.1), 1e21, 2.5, 1e-7, -0.0}},
		{"%v %v %v %+g %g", []any{math.Inf(1), math.Inf(-1), math.NaN(), math.Inf(1), 100000000.0}},
		{"(%g%+gj) %v %v", []any{1.0, -2.0, complex(1, -2), complex64(complex(0.5, 3))}},
		{"%v %t %v", []any{true, false, []bool{true, false}}},
		{"%v %v %v %v", []any{[]int64{2, 3}, []int64{}, [2]int{1, 2}, []string{"a", "b"}}},
		{"%v %s %d", []any{code(2), code(1), code(2)}},
		{"%v %+v", []any{shape{[]int64{1, 2}, "s", true}, shape{nil, "t", false}}},
		{"%v %v", []any{&shape{Name: "p"}, device{1, 0}}},
		{"%v %s %q", []any{errors.New("boom"), fs.ErrNotExist, errors.New("q")}},
		{"%v %v %s", []any{nil, nilErr, nil}},
		{"%v|%s", []any{nilPtr, nilPtr}},
		{"%T %T %T %T", []any{1, "s", shape{}, nil}},
		{"%T", []any{reflect.TypeFor[map[string]int]()}},
		{"%v", []any{reflect.TypeFor[[]float32]()}},
		{"%d %s", []any{"str", 3}},
		{"%v %v", []any{1}},
		{"%v", []any{1, "extra", 2.5}},
		{"%d", []any{nil}},
		{"trailing %", nil},
		{"%v", []any{[]any{1, "a", nil, errors.New("e")}}},
		{"%v %v", []any{[]device{{1, 2}}, []byte{1, 2}}},
		{"%s %x %q", []any{[]byte("hi"), []byte("hi"), []byte("hi")}},
		{"%v", []any{struct{ A *int }{nil}}},
		{"%v", []any{unsafe.Pointer(nil)}},
		{"%v %v", []any{map[string]int{"a": 1}, func() {}}},
	}
	for _, tt := range tests {
		got, want := fmt.Sprintf(tt.format, tt.args...), stdfmt.Sprintf(tt.format, tt.args...)
		if strings.Contains(want, "map[") || strings.Contains(want, "0x") {
			continue // a map's entries and a func's address are left out: the form is checked below
		}
		if got != want {
			t.Errorf("Sprintf(%q, %#v) = %q, fmt writes %q", tt.format, tt.args, got, want)
		}
	}
	bad := "%v %d" // a format that is no constant: go vet would refuse the map's %d
	if got := fmt.Sprintf(bad, map[string]int{"a": 1}, map[string]int{}); got != "%!v(map[string]int) %!d(map[string]int)" {
		t.Errorf("a map: %q", got)
	}
}

// TestErrorfWraps: %w wraps its operands as fmt.Errorf's do, for errors.Is,
// errors.As and Unwrap, and the message is fmt's.
func TestErrorfWraps(t *testing.T) {
	base := fs.ErrPermission
	var pathErr = &fs.PathError{Op: "open", Path: "/x", Err: fs.ErrNotExist}
	for _, tt := range []struct {
		format string
		args   []any
	}{
		{"no wrap %d", []any{3}},
		{"wrapped: %w", []any{base}},
		{"%w: %q", []any{pathErr, "x"}},
		{"two: %w and %w", []any{base, pathErr}},
		{"not an error: %w", []any{3}},
	} {
		got, want := fmt.Errorf(tt.format, tt.args...), stdfmt.Errorf(tt.format, tt.args...)
		if got.Error() != want.Error() {
			t.Errorf("Errorf(%q).Error() = %q, want %q", tt.format, got.Error(), want.Error())
		}
		for _, target := range []error{base, fs.ErrNotExist} {
			if errors.Is(got, target) != errors.Is(want, target) {
				t.Errorf("Errorf(%q): errors.Is(%v) = %v, fmt's %v", tt.format, target, errors.Is(got, target), !errors.Is(got, target))
			}
		}
		var pe *fs.PathError
		if errors.As(got, &pe) != errors.As(want, &pe) {
			t.Errorf("Errorf(%q): errors.As differs", tt.format)
		}
		if (errors.Unwrap(got) == nil) != (errors.Unwrap(want) == nil) {
			t.Errorf("Errorf(%q): Unwrap differs", tt.format)
		}
	}
}

// TestSprintAsFmt: operands as %v, a space between two that are no strings.
func TestSprintAsFmt(t *testing.T) {
	for _, args := range [][]any{
		{[]int64{4, 5}},
		{int64(-3)},
		{"a", "b", 1, 2, "c", 3.5, errors.New("e")},
		{nil, code(0)},
	} {
		if got, want := fmt.Sprint(args...), stdfmt.Sprint(args...); got != want {
			t.Errorf("Sprint(%#v) = %q, want %q", args, got, want)
		}
	}
	var b, sb strings.Builder
	fmt.Fprintln(&b, "x", 1, errors.New("e"))
	stdfmt.Fprintln(&sb, "x", 1, errors.New("e"))
	fmt.Fprintf(&b, "%s=%d;", "n", 2)
	stdfmt.Fprintf(&sb, "%s=%d;", "n", 2)
	if b.String() != sb.String() {
		t.Errorf("Fprintln and Fprintf wrote %q, fmt %q", b.String(), sb.String())
	}
}

// directive is a formatting directive in a string: its flags, any width or
// precision, and its verb.
var directive = regexp.MustCompile(`%([-+# 0]*)([0-9*]*(?:\.[0-9*]*)?)(.)`)

// TestVerbsInUseAreKnown reads the string literals of every file of the
// module that imports this package, and fails on a directive this package
// does not write as fmt does: a width, a precision, a flag or a verb of
// fmt's that it leaves out.
func TestVerbsInUseAreKnown(t *testing.T) {
	const self = `"github.com/godlpack/godlpack/internal/fmt"`
	root := filepath.Join("..", "..")
	files := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "build" || d.Name() == "vendor") {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(src), self) {
			return err
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				return true
			}
			for _, m := range directive.FindAllStringSubmatch(s, -1) {
				if strings.Trim(m[1], "+#") != "" || m[2] != "" || !strings.Contains("vsdqwxXgTct%", m[3]) {
					t.Errorf("%s: %q: internal/fmt writes %q unlike fmt", path, s, m[0])
				}
			}
			return true
		})
		return nil
	})
	if err != nil || files < 10 {
		t.Fatalf("read %d files that import internal/fmt: %v", files, err)
	}
}

// TestExtensionsLinkNoFmt fails when a package that Go extensions link
// (pymodule and vec, and what they import of the module) imports the
// standard fmt, or flag, which imports it: 120 KB of every extension,
// which this package is there to spare them.
func TestExtensionsLinkNoFmt(t *testing.T) {
	const module = "github.com/godlpack/godlpack/"
	root := filepath.Join("..", "..")
	seen := map[string]bool{}
	todo := []string{"pymodule", "vec"}
	for len(todo) > 0 {
		dir := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", dir, err)
		}
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			if hasIgnoreTag(f) {
				continue
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				switch {
				case (path == "fmt" || path == "flag") && dir != "internal/fmt":
					t.Errorf("%s imports %s: import github.com/godlpack/godlpack/internal/fmt instead", file, path)
				case strings.HasPrefix(path, module):
					todo = append(todo, strings.TrimPrefix(path, module))
				}
			}
		}
	}
	if len(seen) < 10 {
		t.Fatalf("followed the imports of %d packages only: %v", len(seen), seen)
	}
}

// hasIgnoreTag says whether f is built only on request (//go:build ignore, as gen_adapters.go).
func hasIgnoreTag(f *ast.File) bool {
	for _, g := range f.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}
