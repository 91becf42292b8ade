package pymodule

import (
	_ "embed"
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
// types convert from and to, and its docstring, and the module's classes
// Tensor, DType and Device, which tensor results are. Tensor parameters are
// typed by a protocol of __dlpack__, which NumPy arrays, PyTorch tensors and
// every DLPack producer satisfy.
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
	b.WriteString("import sys\nfrom typing import Any, ClassVar, Protocol, SupportsIndex, Union, final, type_check_only\n\n" +
		"from typing_extensions import CapsuleType\n")
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
	b.WriteString(tensorAliases + tensorClasses)
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
	if p.optional {
		return kinds[p.kind].stubParam + " | None"
	}
	return kinds[p.kind].stubParam
}

// resultType is the type of a result of kind k, whose tensors come out as as says.
func resultType(k kind, as ReturnKind, imports map[string]bool) string {
	if k != kindTensor {
		return kinds[k].stubResult
	}
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
	return kinds[k].stubResult
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

// tensorAliases are the protocols and aliases the classes of
// tensor_classes.pyi use, as an extension's stub declares them.
const tensorAliases = `
@type_check_only
class _SupportsDLPackDevice(Protocol):
    def __dlpack_device__(self) -> tuple[int, int]: ...

@type_check_only
class _SupportsDLPackDataType(Protocol):
    def __dlpack_data_type__(self) -> tuple[int, int, int]: ...

# NumPy dtypes and scalar types, torch.dtype objects and Python's bool, int, float and complex are accepted too.
_DTypeLike = Union["DType", str, _SupportsDLPackDataType, type, Any]
# A (device_type, device_id) tuple (a Device is one), a str such as "cpu" or "cuda:1", a torch.device.
_DeviceLike = Union[tuple[int, int], str, _SupportsDLPackDevice, Any]

`

// tensorClasses is the stub of the types capsule.AddTensorTypes adds to
// every module: Device, DType and Tensor, as python/godlpack/_core.pyi types
// godlpack's own with too (go generate copies them there;
// TestCoreStubTensorClasses fails while the copy is stale).
//
//go:embed tensor_classes.pyi
var tensorClasses string
