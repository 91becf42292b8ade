package pymodule

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/godlpack/godlpack/capsule"
	"github.com/godlpack/godlpack/internal/pysig"
)

// A Module is an extension module's name, docstring and functions, for an
// extension that wants both its module (Init, from PyInit_<name>) and its
// type stub (Stub, or Main from the package's main function) from one
// description:
//
//	var module = pymodule.Module{Name: "rowstats", Doc: "…", Functions: []pymodule.Function{…}}
//
//	//export PyInit_rowstats
//	func PyInit_rowstats() *C.PyObject { return (*C.PyObject)(module.Init()) }
//
//	func main() { module.Main() } // go run ./rowstats -pyi rowstats.pyi
type Module struct {
	Name, Doc string
	Functions []Function
}

// Init returns the new module object (New), or nil with the Python
// exception set.
func (m *Module) Init() capsule.Object {
	o, _ := New(m.Name, m.Doc, m.Functions...)
	return o
}

// Main is the main function of an extension's package main, which runs
// only when the package is run as a program (go run): with -pyi FILE it
// writes the module's type stub there ("-" for standard output).
func (m *Module) Main() {
	fs := flag.NewFlagSet(m.Name, flag.ExitOnError)
	pyi := fs.String("pyi", "", "write the module's type stub (.pyi) to this file (- for standard output)")
	_ = fs.Parse(os.Args[1:])
	if *pyi == "" {
		fmt.Fprintf(os.Stderr, "%s is a Python extension module (build it with go build -buildmode=c-shared);\n"+
			"run it with -pyi FILE to write its type stub\n", m.Name)
		os.Exit(2)
	}
	stub, err := m.Stub()
	if err == nil {
		if *pyi == "-" {
			_, err = os.Stdout.WriteString(stub)
		} else {
			err = os.WriteFile(*pyi, []byte(stub), 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Stub returns the module's type stub (.pyi): every function with its
// parameters (their kinds, defaults shown as ...), the Python types its Go
// types convert from and to, and its docstring. Tensor parameters are typed
// by a protocol of __dlpack__, which NumPy arrays, PyTorch tensors and every
// DLPack producer satisfy.
func (m *Module) Stub() (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", docstring(m.Doc, ""))
	imports := map[string]bool{}
	var defs []string
	for _, f := range m.Functions {
		bd, err := plan(f)
		if err != nil {
			return "", fmt.Errorf("%s.%s: %v", m.Name, f.name, err)
		}
		defs = append(defs, bd.stub(imports))
	}
	names := []string{"Any", "Protocol"}
	if strings.Contains(strings.Join(defs, ""), "SupportsIndex") {
		names = append(names, "SupportsIndex")
	}
	fmt.Fprintf(&b, "from typing import %s, type_check_only\n", strings.Join(names, ", "))
	for _, mod := range []string{"godlpack", "numpy", "torch"} {
		if imports[mod] {
			fmt.Fprintf(&b, "\nimport %s\n", mod)
		}
	}
	b.WriteString(`
@type_check_only
class _Tensor(Protocol):
    """A DLPack producer: a NumPy array, a PyTorch tensor, a godlpack Tensor, ..."""

    def __dlpack__(self, *, stream: Any = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: Any = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
`)
	for _, d := range defs {
		b.WriteString("\n" + d)
	}
	return b.String(), nil
}

// stub is b's def line and docstring.
func (b *binding) stub(imports map[string]bool) string {
	var parts []string
	star := false
	for i, p := range b.signature {
		if p.Kind == pysig.KeywordOnly && !star {
			parts = append(parts, "*")
			star = true
		}
		s := p.Name + ": " + b.params[i].pyType()
		if p.HasDefault {
			s += " = ..."
		}
		parts = append(parts, s)
		if p.Kind == pysig.PositionalOnly && (i+1 == len(b.signature) || b.signature[i+1].Kind != pysig.PositionalOnly) {
			parts = append(parts, "/")
		}
	}
	var results []string
	for _, k := range b.results {
		results = append(results, resultType(k, b.returnAs, imports))
	}
	ret := "None"
	switch len(results) {
	case 0:
	case 1:
		ret = results[0]
	default:
		ret = "tuple[" + strings.Join(results, ", ") + "]"
	}
	return fmt.Sprintf("def %s(%s) -> %s:\n%s\n", b.name, strings.Join(parts, ", "), ret, docstring(b.doc, "    "))
}

// pyType is the type a parameter accepts.
func (p *param) pyType() string {
	var t string
	switch p.kind {
	case kindBool:
		t = "bool"
	case kindInt8, kindInt16, kindInt32, kindInt64, kindUint8, kindUint16, kindUint32, kindUint64:
		t = "int | SupportsIndex"
	case kindFloat32, kindFloat64:
		t = "float"
	case kindComplex64, kindComplex128:
		t = "complex"
	case kindString:
		t = "str"
	case kindBytes:
		t = "bytes"
	case kindTensor:
		t = "_Tensor"
	default:
		t = "Any"
	}
	if p.optional {
		t += " | None"
	}
	return t
}

func resultType(k kind, as ReturnKind, imports map[string]bool) string {
	switch k {
	case kindBool:
		return "bool"
	case kindInt8, kindInt16, kindInt32, kindInt64, kindUint8, kindUint16, kindUint32, kindUint64:
		return "int"
	case kindFloat32, kindFloat64:
		return "float"
	case kindComplex64, kindComplex128:
		return "complex"
	case kindString:
		return "str"
	case kindBytes:
		return "bytes"
	case kindTensor:
		switch as {
		case AsNumPy:
			imports["numpy"] = true
			return "numpy.ndarray[Any, Any]"
		case AsTorch:
			imports["torch"] = true
			return "torch.Tensor"
		case AsGodlpack:
			imports["godlpack"] = true
			return "godlpack.Tensor"
		}
		return "_Tensor"
	}
	return "Any"
}

// docstring quotes doc as a Python docstring, indented.
func docstring(doc, indent string) string {
	doc = strings.ReplaceAll(strings.ReplaceAll(doc, `\`, `\\`), `"""`, `\"\"\"`)
	lines := strings.Split(doc, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = indent + lines[i]
		}
	}
	if len(lines) > 1 {
		return indent + `"""` + strings.Join(lines, "\n") + "\n" + indent + `"""`
	}
	return indent + `"""` + doc + `"""`
}
