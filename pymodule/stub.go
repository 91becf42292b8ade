package pymodule

import (
	_ "embed"
	"reflect"
	"slices"
	"strings"

	"github.com/godlpack/godlpack/internal/fmt"
)

// Stub returns the module's type stub (.pyi): every function with its
// parameters (their kinds, defaults shown as ...), the Python types its Go
// types convert from and to, and its docstring; every class with its
// constructor, methods, static methods, properties and attributes; the
// enums, exception classes and constants; and, when a function returns
// tensors as the module's Tensor, the classes Tensor, DType and Device.
// Tensor parameters are typed by a protocol of __dlpack__, which NumPy
// arrays, PyTorch tensors and every DLPack producer satisfy. Its error is
// what [New] would refuse of the description.
func (m *Module) Stub() (string, error) {
	items := m.Items
	sc, err := scopeOf(m.Name, items)
	if err != nil {
		return "", fmt.Errorf("%s: %v", m.Name, err)
	}
	st := &stubber{module: m.Name, imports: map[string]bool{}}
	var defs []string
	for _, it := range items {
		def, err := it.in(stepStub, &builder{module: m.Name, sc: sc, st: st})
		if err != nil {
			return "", err
		}
		defs = append(defs, def)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n\n", docstring(m.Doc, ""))
	b.WriteString("import sys\nfrom typing import Any, Callable, ClassVar, Final, Protocol, SupportsIndex, Union, final, " +
		"type_check_only\n\nfrom typing_extensions import CapsuleType\n")
	for _, mod := range []string{"enum", "godlpack", "numpy", "torch"} {
		if st.imports[mod] {
			fmt.Fprintf(&b, "\nimport %s\n", mod)
		}
	}
	b.WriteString(`
@type_check_only
class SupportsDLPack(Protocol):
    """A tensor of any DLPack producer: a NumPy array, a PyTorch tensor, a JAX array, a godlpack Tensor, ...

    What a parameter takes of it (dtypes, shape, layout) is its annotation, shown first in its function's docstring:
    x: tensor[float32, (*, *)] takes a 2-D float32 tensor."""

    def __dlpack__(self, *, stream: Any = ..., max_version: tuple[int, int] | None = ...,
                   dl_device: Any = ..., copy: bool | None = ...) -> Any: ...
    def __dlpack_device__(self) -> tuple[int, int]: ...
`)
	if needsTensorTypes(items, sc) {
		b.WriteString(tensorAliases + tensorClasses)
	}
	for _, d := range defs {
		b.WriteString("\n" + d)
	}
	return b.String(), nil
}

// A stubber writes the stubs of one module's items.
type stubber struct {
	module  string
	imports map[string]bool
}

// def is b's def line and docstring, indented. Where b's signature as
// Python tools show it (docSignature) says more than the def line can (the
// dtypes and shapes of its tensors, the values of its defaults), the
// docstring opens with it.
func (st *stubber) def(b *binding, indent string) string {
	params := joinParams(b.signature, func(i int) string {
		p := b.signature[i]
		if i == 0 && b.role.takesSelf() {
			return "self"
		}
		t := st.paramType(&b.params[i], false)
		if sm := b.special(); sm != nil && sm.anyObject {
			t = "object" // as object's own __eq__ takes it: another type's operand declines
		}
		s := p.Name + ": " + t
		if p.HasDefault {
			s += " = ..."
		}
		return s
	})
	ret := st.returns(b, false)
	if sm := b.special(); sm != nil && sm.result == resultSelf && len(b.results) == 0 {
		ret = st.className(b.class) // an in-place operator's result is the instance
	}
	name := b.name
	if b.role == roleInit {
		// __new__, not __init__: the class's constructor is its own call (a vectorcall), and stubtest holds an
		// __init__ to object's.
		name, ret = "__new__", b.class.name
		params = strings.TrimSuffix("cls, "+params, ", ")
	}
	doc := b.doc
	if b.saysMore() {
		doc = strings.TrimSuffix(b.docSignature(st)+"\n\n"+doc, "\n\n")
	}
	if doc == "" {
		return fmt.Sprintf("%sdef %s(%s) -> %s: ...\n", indent, name, params, ret)
	}
	return fmt.Sprintf("%sdef %s(%s) -> %s:\n%s\n", indent, name, params, ret, docstring(doc, indent+"    "))
}

// returns is the type b returns, as the stub's def line types it, or
// where shown, as its signature shows it to a reader (resultType); a tuple
// of several.
func (st *stubber) returns(b *binding, shown bool) string {
	var results []string
	for _, o := range b.outs {
		results = append(results, st.resultType(o, b.returnAs, shown))
	}
	switch len(results) {
	case 0:
		return "None"
	case 1:
		return results[0]
	}
	return "tuple[" + strings.Join(results, ", ") + "]"
}

// paramType is the type a parameter accepts, as the stub's def line types
// it, or where shown, as its signature shows it to a reader: a number as
// its Python type (int, not int | SupportsIndex), an enum without the ints
// it takes too, a tensor as its annotation (tensor[float32, (*, *)]).
func (st *stubber) paramType(p *param, shown bool) string {
	t := kinds[p.kind].stubParam
	switch {
	case p.class != nil:
		t = st.className(p.class)
	case p.enum != nil && shown:
		t = st.enumName(p.enum)
	case p.enum != nil:
		t = st.enumName(p.enum) + " | int"
	case p.callback != nil:
		t = st.callbackType(p.callback)
	case p.tensor != nil && shown:
		t = p.tensor.annotation().String()
	case shown:
		t = kinds[p.kind].stubResult
	}
	if p.optional {
		return t + " | None"
	}
	return t
}

// resultType is the type of a result, whose tensors come out as as says;
// where shown, a tensor's type with the dtypes and shape its annotation or
// its slice type gives, as its signature shows it to a reader
// ("numpy.ndarray[float32, (*)]").
func (st *stubber) resultType(o outPlan, as ReturnKind, shown bool) string {
	switch {
	case o.class != nil:
		return st.className(o.class)
	case o.enum != nil:
		return st.enumName(o.enum)
	case o.kind != kindTensor:
		return kinds[o.kind].stubResult
	case shown && o.tensor != nil:
		return tensorResultNames[as] + "[" + o.tensor.annotation().Items() + "]"
	case shown:
		return tensorResultNames[as]
	}
	switch as {
	case AsNumPy:
		st.imports["numpy"] = true
		return numpyType(o.tensor)
	case AsTorch:
		st.imports["torch"] = true
		return "torch.Tensor"
	case AsGodlpack:
		st.imports["godlpack"] = true
		return "godlpack.Tensor"
	}
	return kinds[o.kind].stubResult
}

// className is how this module's stub names a class: by its name, or
// qualified by its module and imported.
func (st *stubber) className(d *classDef) string {
	if d.module == st.module {
		return d.name
	}
	st.imports[d.module] = true
	return d.qualified()
}

// enumName is how this module's stub names an enum, as className a class.
func (st *stubber) enumName(e *enumDef) string {
	if e.module == st.module || e.module == "" {
		return e.name
	}
	st.imports[e.module] = true
	return e.module + "." + e.name
}

// callbackType is a callback's Callable type.
func (st *stubber) callbackType(cb *callbackPlan) string {
	var args []string
	for _, o := range cb.args.outs {
		args = append(args, st.resultType(o, AsTensor, false))
	}
	var results []string
	for i := range cb.results.params {
		p := cb.results.params[i]
		results = append(results, st.paramType(&p, false))
	}
	ret := "None"
	switch len(results) {
	case 0:
		ret = "Any"
	case 1:
		ret = results[0]
	default:
		ret = "tuple[" + strings.Join(results, ", ") + "]"
	}
	return "Callable[[" + strings.Join(args, ", ") + "], " + ret + "]"
}

// class is a class's stub.
func (st *stubber) class(d *classDef, sc *scope) (string, error) {
	if err := d.planMembers(sc); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "@final\nclass %s:\n", d.name)
	if d.doc != "" {
		b.WriteString(docstring(d.doc, "    ") + "\n\n")
	}
	stub := func(f Function) error {
		f.class = d
		bd, err := plan(f, sc)
		if err != nil {
			return fmt.Errorf("%s: %v", f.name, err)
		}
		if f.role == roleStatic {
			b.WriteString("    @staticmethod\n")
		}
		b.WriteString(st.def(bd, "    "))
		return nil
	}
	if d.init != nil {
		if err := stub(*d.init); err != nil {
			return "", err
		}
	}
	for _, a := range d.attrs {
		t := kinds[scalarKind(reflect.TypeOf(a.value))].stubResult
		fmt.Fprintf(&b, "    %s: ClassVar[%s]\n", a.name, t)
	}
	for _, f := range d.funcs {
		if err := stub(f); err != nil {
			return "", err
		}
	}
	property := func(name, typ, doc string) {
		fmt.Fprintf(&b, "    @property\n    def %s(self) -> %s:", name, typ)
		if doc != "" {
			b.WriteString("\n" + docstring(doc, "        ") + "\n")
		} else {
			b.WriteString(" ...\n")
		}
	}
	for _, p := range d.props {
		if p.field != nil {
			property(p.name, kinds[p.field.kind].stubResult, p.doc)
			continue
		}
		get, err := plan(Function{name: p.name, fn: p.get, role: roleGetter, class: d}, sc)
		if err != nil {
			return "", fmt.Errorf("property %s: %v", p.name, err)
		}
		property(p.name, st.returns(get, false), p.doc)
		if p.set.bind != nil {
			set, err := plan(Function{name: p.name, params: "value", fn: p.set, role: roleSetter, class: d}, sc)
			if err != nil {
				return "", fmt.Errorf("property %s: %v", p.name, err)
			}
			fmt.Fprintf(&b, "    @%s.setter\n    def %s(self, value: %s) -> None: ...\n", p.name, p.name,
				st.paramType(&set.params[1], false))
		}
	}
	if d.eq != nil {
		b.WriteString("    def __eq__(self, other: object, /) -> bool: ...\n")
		if d.hash != nil {
			b.WriteString("    def __hash__(self) -> int: ...\n")
		}
	}
	if eq, hash := d.comparesByValue(); eq && !hash {
		b.WriteString("    __hash__: ClassVar[None]  # type: ignore[assignment]\n")
	}
	b.WriteString("    def __reduce__(self) -> tuple[Any, ...]: ...\n")
	return b.String(), nil
}

// needsTensorTypes says whether a module's functions return tensors as the
// module's Tensor (or hand them to callbacks), which it then holds: Tensor,
// DType, Device and _rebuild.
func needsTensorTypes(items []Item, sc *scope) bool {
	b := &builder{module: sc.module, sc: sc}
	return slices.ContainsFunc(items, func(it Item) bool {
		tensors, _ := it.in(stepTensors, b)
		return tensors != ""
	})
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

// tensorClasses is the stub of the types pytensor.AddTensorTypes adds to
// every module: Device, DType and Tensor, as python/godlpack/_core.pyi types
// godlpack's own with too (go generate copies them there;
// TestCoreStubTensorClasses fails while the copy is stale).
//
//go:embed tensor_classes.pyi
var tensorClasses string

// numpyType is the type of a NumPy array of t's dtypes and number of
// dimensions, as NumPy's stubs spell it: numpy.ndarray[tuple[int, int],
// numpy.dtype[numpy.float32]] for a 2-D float32 one. A dtype NumPy's
// typing does not name (bfloat16, the float8s) is Any, and so are the
// dtypes and shape of a result nothing declares.
func numpyType(t *tensorSpec) string {
	shape, dtype := "tuple[int, ...]", "Any"
	if t == nil {
		return "numpy.ndarray[" + shape + ", numpy.dtype[" + dtype + "]]"
	}
	if t.shape != nil {
		shape = "tuple[()]"
		if len(t.shape) > 0 {
			shape = "tuple[" + strings.Repeat("int, ", len(t.shape)-1) + "int]"
		}
	}
	var scalars []string
	for _, dt := range t.dtypes {
		name := dt.String()
		if !numpyScalars[name] {
			scalars = nil
			break
		}
		scalars = append(scalars, "numpy."+name)
	}
	if len(scalars) > 0 {
		dtype = strings.Join(scalars, " | ")
	}
	return "numpy.ndarray[" + shape + ", numpy.dtype[" + dtype + "]]"
}

// numpyScalars are the dtypes whose scalar types NumPy names as DLPack does.
var numpyScalars = map[string]bool{"bool": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint8": true, "uint16": true, "uint32": true, "uint64": true, "float16": true, "float32": true, "float64": true,
	"complex64": true, "complex128": true}
