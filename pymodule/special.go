package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"github.com/godlpack/godlpack/internal/fmt"
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/pysig"
)

// gdlNSpecial is the number of special methods special.h names.
const gdlNSpecial = C.GDL_NSPECIAL

// A specialMethod is one of Python's special methods that a class's
// [Method] may be: the type slot it fills (special.c), what it takes besides
// the instance and what its Go function must return, as CPython reads the
// same method of a Python class.
type specialMethod struct {
	name  string
	id    int    // its GDL_SPECIAL_ index, in gdl_class.special
	group string // its C slot, which a binary operator shares with its reflection and [] = with del []
	// params is the number of parameters it takes besides the instance (-1: any, as __call__'s), of which the
	// last optional may have defaults and go unpassed (pow's modulus).
	params, optional int
	result           resultRule
	operands         bool // an operand that does not convert to its parameter declines: NotImplemented
	anyObject        bool // its stub takes any object, as object's own method does (__eq__, __ne__)
}

// A resultRule is what a special method's Go function returns (an error
// last aside), for CPython to read its result.
type resultRule uint8

const (
	resultAny    resultRule = iota // any results, as a method's
	resultNone                     // none: its result is not read
	resultSelf                     // none (the instance is the result) or one: an in-place operator's
	resultString                   // a string: __repr__, __str__
	resultBool                     // a bool: __bool__, __contains__
	resultInt                      // an integer: __len__, __hash__, __index__, __int__
	resultFloat                    // a float: __float__
	resultIter                     // an instance, or any object: __iter__'s iterator
)

var resultWords = [...]string{
	resultNone:   "nothing",
	resultSelf:   "nothing (the instance is the result) or one value",
	resultString: "a string",
	resultBool:   "a bool",
	resultInt:    "an integer",
	resultFloat:  "a float",
	resultIter:   "an instance of a class (or a cpython.Object)",
}

// specialMethods are the special methods the binder supports, by name.
var specialMethods = func() map[string]*specialMethod {
	m := map[string]*specialMethod{}
	add := func(s specialMethod) { m[s.name] = &s }
	for i, op := range []string{"lt", "le", "eq", "ne", "gt", "ge"} {
		add(specialMethod{name: "__" + op + "__", id: C.GDL_SPECIAL_LT + i, group: "compare", params: 1,
			operands: true, anyObject: op == "eq" || op == "ne"})
	}
	for _, s := range []specialMethod{
		{name: "__repr__", id: C.GDL_SPECIAL_REPR, result: resultString},
		{name: "__str__", id: C.GDL_SPECIAL_STR, result: resultString},
		{name: "__hash__", id: C.GDL_SPECIAL_HASH, result: resultInt},
		{name: "__bool__", id: C.GDL_SPECIAL_BOOL, result: resultBool},
		{name: "__call__", id: C.GDL_SPECIAL_CALL, params: -1},
		{name: "__len__", id: C.GDL_SPECIAL_LEN, result: resultInt},
		{name: "__getitem__", id: C.GDL_SPECIAL_GETITEM, params: 1},
		{name: "__setitem__", id: C.GDL_SPECIAL_SETITEM, group: "item", params: 2, result: resultNone},
		{name: "__delitem__", id: C.GDL_SPECIAL_DELITEM, group: "item", params: 1, result: resultNone},
		{name: "__contains__", id: C.GDL_SPECIAL_CONTAINS, params: 1, result: resultBool},
		{name: "__iter__", id: C.GDL_SPECIAL_ITER, result: resultIter},
		{name: "__next__", id: C.GDL_SPECIAL_NEXT},
		{name: "__neg__", id: C.GDL_SPECIAL_NEG},
		{name: "__pos__", id: C.GDL_SPECIAL_POS},
		{name: "__abs__", id: C.GDL_SPECIAL_ABS},
		{name: "__invert__", id: C.GDL_SPECIAL_INVERT},
		{name: "__index__", id: C.GDL_SPECIAL_INDEX, result: resultInt},
		{name: "__int__", id: C.GDL_SPECIAL_INT, result: resultInt},
		{name: "__float__", id: C.GDL_SPECIAL_FLOAT, result: resultFloat},
		{name: "__divmod__", id: C.GDL_SPECIAL_DIVMOD, group: "divmod", params: 1, operands: true},
		{name: "__rdivmod__", id: C.GDL_SPECIAL_RDIVMOD, group: "divmod", params: 1, operands: true},
	} {
		if s.group == "" {
			s.group = s.name
		}
		add(s)
	}
	// Each operator, its reflection and its in-place form, at consecutive indices (special.h).
	for i, op := range []string{"add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow", "lshift",
		"rshift", "and", "or", "xor"} {
		params, optional := 1, 0
		if op == "pow" {
			params, optional = 2, 1 // pow(a, b, modulus)
		}
		id := C.GDL_SPECIAL_ADD + 3*i
		add(specialMethod{name: "__" + op + "__", id: id, group: op, params: params, optional: optional, operands: true})
		add(specialMethod{name: "__r" + op + "__", id: id + 1, group: op, params: 1, operands: true})
		add(specialMethod{name: "__i" + op + "__", id: id + 2, group: "i" + op, params: params, optional: optional,
			result: resultSelf, operands: true})
	}
	return m
}()

// lookedUpByName are the special names that CPython, or the library that
// calls them, looks up by name on the instance or its class rather than in a
// type slot: a [Method] of one of these names is a method like any other.
var lookedUpByName = map[string]bool{}

func init() {
	for _, name := range strings.Fields(`__enter__ __exit__ __aenter__ __aexit__ __dlpack__ __dlpack_device__
		__format__ __reversed__ __length_hint__ __bytes__ __complex__ __round__ __trunc__ __floor__ __ceil__
		__sizeof__ __dir__ __fspath__ __copy__ __deepcopy__ __reduce__ __reduce_ex__ __getstate__ __setstate__
		__getnewargs__ __getnewargs_ex__ __array__ __array_namespace__ __class_getitem__ __missing__`) {
		lookedUpByName[name] = true
	}
}

// constructorNames are special names a class's life owns, never a method.
var constructorNames = map[string]string{
	"__init__": "the constructor is Init (or InitZero), not a method",
	"__new__":  "the constructor is Init (or InitZero), not a method",
	"__del__":  "an instance's death lets go of its Go value: a Go cleanup (runtime.AddCleanup) runs after that",
}

// isDunder says whether name is spelled as Python's special names are.
func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}

// special returns the special method f is, or nil for an ordinary method,
// function or member.
func (f *Function) special() *specialMethod {
	if f.role != roleMethod {
		return nil
	}
	return specialMethods[f.name]
}

// checkSpecials says what is wrong with the class's special names: a
// constructor's name, a special name the binder does not support, a static
// special method, and a special method given twice (twice a Method, or a
// Method beside the member that makes it: Repr, Equality, Pickle).
func (d *classDef) checkSpecials() error {
	given := map[string]string{}
	if d.reprGiven {
		given["__repr__"] = "Repr"
	}
	if d.eq != nil {
		given["__eq__"] = "Equality"
	}
	if d.hash != nil {
		given["__hash__"] = "Equality"
	}
	if d.state != nil {
		given["__reduce__"] = "Pickle"
	}
	for _, f := range d.funcs {
		if !isDunder(f.name) {
			continue
		}
		switch why, refused := constructorNames[f.name]; {
		case refused:
			return fmt.Errorf("class %s: %s: %s", d.name, f.name, why)
		case specialMethods[f.name] != nil && f.role == roleStatic:
			return fmt.Errorf("class %s: %s: a special method takes the instance: a Method, not a StaticMethod", d.name, f.name)
		case specialMethods[f.name] == nil && !lookedUpByName[f.name]:
			return fmt.Errorf("class %s: %s: not a special method the binder supports (docs/binder.md lists them)",
				d.name, f.name)
		}
		if by, twice := given[f.name]; twice {
			return fmt.Errorf("class %s: %s given twice: by %s and by Method", d.name, f.name, by)
		}
		given[f.name] = "Method"
	}
	return nil
}

// planSpecial readies the parameters ps (the instance first) of f, a
// special method: their number is the slot's, and each is positional, as
// the slot passes it (__call__'s stay as written). It says what is wrong
// with a method that cannot fill its slot.
func planSpecial(f *Function, ps []pysig.Param) error {
	s := f.special()
	if s == nil || s.params < 0 {
		return nil
	}
	n := len(ps) - 1
	if n < s.params-s.optional || n > s.params {
		want := count(s.params, "parameter")
		if s.optional > 0 {
			want = fmt.Sprintf("%d or %d parameters", s.params-s.optional, s.params)
		}
		return fmt.Errorf("takes %s besides the instance, not %d", want, n)
	}
	for i := 1; i < len(ps); i++ {
		if ps[i].Kind == pysig.KeywordOnly {
			return fmt.Errorf("takes its arguments by position: %s is keyword-only", ps[i].Name)
		}
		if ps[i].HasDefault && i <= s.params-s.optional {
			return fmt.Errorf("parameter %s is always passed: it takes no default", ps[i].Name)
		}
		if !ps[i].HasDefault && i > s.params-s.optional {
			return fmt.Errorf("parameter %s may go unpassed: it needs a default", ps[i].Name)
		}
		ps[i].Kind = pysig.PositionalOnly
	}
	return nil
}

// checkResults says what is wrong with the results of b, a special method,
// for CPython to read them.
func (s *specialMethod) checkResults(b *binding) error {
	n := len(b.results)
	ok := true
	switch s.result {
	case resultNone:
		ok = n == 0
	case resultSelf:
		ok = n <= 1
	case resultString:
		ok = n == 1 && b.results[0] == kindString
	case resultBool:
		ok = n == 1 && b.results[0] == kindBool
	case resultInt:
		ok = n == 1 && b.results[0] >= kindInt8 && b.results[0] <= kindUint64
	case resultFloat:
		ok = n == 1 && (b.results[0] == kindFloat32 || b.results[0] == kindFloat64)
	case resultIter:
		ok = n == 1 && (b.results[0] == kindInstance || b.results[0] == kindObject)
	}
	if !ok {
		return fmt.Errorf("must return %s (and an error, or not)", resultWords[s.result])
	}
	return nil
}

// A specialFunc is a special method of a class and the function that is it:
// a Method, or what Repr and Equality make (named as the member, for errors).
type specialFunc struct {
	method *specialMethod
	f      Function
	member string
}

// specials returns the class's special methods: its Methods of special
// names, and its Repr (or String method, unless a Method is its __repr__)
// and Equality.
func (d *classDef) specials() []specialFunc {
	var out []specialFunc
	has := map[string]bool{}
	for _, f := range d.funcs {
		f.class = d
		if s := f.special(); s != nil {
			out = append(out, specialFunc{s, f, f.name})
			has[f.name] = true
		}
	}
	member := func(name, params string, fn *Fn, label string) {
		if fn != nil && !has[name] {
			out = append(out, specialFunc{specialMethods[name], Function{name: name, params: params, fn: *fn,
				role: roleMethod, class: d}, label})
		}
	}
	member("__repr__", "", d.repr, "repr")
	member("__eq__", "other, /", d.eq, "equality")
	member("__hash__", "", d.hash, "hash")
	return out
}

// planMembers plans the special methods that the class's members Repr and
// Equality make, which a stub does not show as methods, for what the import
// would refuse of them.
func (d *classDef) planMembers(sc *scope) error {
	for _, s := range d.specials() {
		if s.member != s.f.name {
			if _, err := plan(s.f, sc); err != nil {
				return fmt.Errorf("%s: %v", s.member, err)
			}
		}
	}
	return nil
}

// comparesByValue says whether the class's instances compare by its ==
// (Equality, or a Method __eq__) and hash by its hash, or are unhashable
// without one, as a Python class with __eq__ and no __hash__.
func (d *classDef) comparesByValue() (eq, hash bool) {
	for _, s := range d.specials() {
		eq = eq || s.method.name == "__eq__"
		hash = hash || s.method.name == "__hash__"
	}
	return eq, hash
}

// fillSpecials puts the function objects of the class's special methods
// (bound as records, which its slots call) in its dict, where help() and
// inspect.signature find them, and takes out the slot wrappers CPython made
// for names the author did not give that share a slot with one given
// (__radd__ beside __add__, __lt__ beside __eq__), which a Python class
// would not have: their slot declines them (NotImplemented). An instance
// of a class that compares by value and gives no hash is unhashable, and
// its __hash__ is None, as a Python class's.
func (d *classDef) fillSpecials(specials []specialFunc, records []*C.gdl_bound, module string) error {
	filled := map[string]bool{"compare": true}
	given := map[string]bool{}
	for i, s := range specials {
		filled[s.method.group], given[s.method.name] = true, true
		o, err := d.function(records[i], module, roleMethod)
		if err != nil {
			return err
		}
		if err := d.set(s.method.name, o); err != nil {
			return err
		}
	}
	for name, s := range specialMethods {
		if filled[s.group] && !given[name] && s.group != name {
			if err := d.forget(name); err != nil {
				return err
			}
		}
	}
	if given["__eq__"] && !given["__hash__"] {
		return d.set("__hash__", C.gdl_none())
	}
	return nil
}

// forget takes name, a slot wrapper CPython made, out of the class's dict.
func (d *classDef) forget(name string) error {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	if C.gdl_class_forget(C.int32_t(d.table.id), cname) != 0 {
		return cpython.PythonError("taking " + name + " out of class " + d.name)
	}
	return nil
}
