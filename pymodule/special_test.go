package pymodule

import (
	"strings"
	"testing"
)

type specialPoint struct{ x float64 }

// TestSpecialRefusals holds the special names a class's description may not
// have to what New refuses at import (Stub runs the same checks): the
// constructor's and the value's life, names the binder does not support, a
// static special method, one given twice, and a method that cannot fill its
// slot.
func TestSpecialRefusals(t *testing.T) {
	self := F1R(func(*specialPoint) int { return 0 })
	str := F1R(func(*specialPoint) string { return "" })
	binary := F2R(func(*specialPoint, float64) float64 { return 0 })
	tests := []struct {
		name    string
		members []Member
		want    string
	}{
		{"init", []Member{Method("__init__", "", self, "")}, "__init__: the constructor is Init (or InitZero)"},
		{"new", []Member{Method("__new__", "", self, "")}, "__new__: the constructor is Init (or InitZero)"},
		{"del", []Member{Method("__del__", "", self, "")}, "__del__: an instance's death lets go of its Go value"},
		{"getattr", []Member{Method("__getattr__", "", self, "")}, "__getattr__: not a special method the binder supports"},
		{"await", []Member{Method("__await__", "", self, "")}, "__await__: not a special method the binder supports"},
		{"misspelt", []Member{Method("__lenn__", "", self, "")}, "__lenn__: not a special method the binder supports"},
		{"static", []Member{StaticMethod("__len__", "", F0R(func() int { return 0 }), "")},
			"__len__: a special method takes the instance: a Method, not a StaticMethod"},
		{"static init", []Member{StaticMethod("__init__", "", F0R(func() int { return 0 }), "")}, "__init__: the constructor"},
		{"twice", []Member{Method("__len__", "", self, ""), Method("__len__", "", self, "")},
			"__len__ given twice: by Method and by Method"},
		{"Repr and Method", []Member{Repr(str), Method("__repr__", "", str, "")}, "__repr__ given twice: by Repr and by Method"},
		{"Equality and Method", []Member{Equality(F2R(func(*specialPoint, *specialPoint) bool { return true }), Fn{}),
			Method("__eq__", "other", F2R(func(*specialPoint, *specialPoint) bool { return true }), "")},
			"__eq__ given twice: by Equality and by Method"},
		{"Equality's hash and Method", []Member{Equality(F2R(func(*specialPoint, *specialPoint) bool { return true }), self),
			Method("__hash__", "", self, "")}, "__hash__ given twice: by Equality and by Method"},
		{"Pickle and Method", []Member{Pickle(F1R(func(p *specialPoint) float64 { return p.x }),
			F1R(func(x float64) *specialPoint { return &specialPoint{x} })), Method("__reduce__", "", self, "")},
			"__reduce__ given twice: by Pickle and by Method"},
		{"arity", []Member{Method("__len__", "n", F2R(func(*specialPoint, int) int { return 0 }), "")},
			"__len__: takes 0 parameters besides the instance, not 1"},
		{"binary arity", []Member{Method("__add__", "", F1R(func(*specialPoint) int { return 0 }), "")},
			"__add__: takes 1 parameter besides the instance, not 0"},
		{"pow arity", []Member{Method("__pow__", "a, b=1, c=2", F4R(func(*specialPoint, int, int, int) int { return 0 }), "")},
			"__pow__: takes 1 or 2 parameters besides the instance, not 3"},
		{"pow modulus", []Member{Method("__pow__", "a, m", F3R(func(*specialPoint, int, int) int { return 0 }), "")},
			"__pow__: parameter m may go unpassed: it needs a default"},
		{"operand default", []Member{Method("__add__", "a=1.0", binary, "")},
			"__add__: parameter a is always passed: it takes no default"},
		{"keyword-only", []Member{Method("__add__", "*, a", binary, "")},
			"__add__: takes its arguments by position: a is keyword-only"},
		{"len result", []Member{Method("__len__", "", str, "")}, "__len__: must return an integer (and an error, or not)"},
		{"repr result", []Member{Method("__repr__", "", self, "")}, "__repr__: must return a string"},
		{"Repr result", []Member{Repr(self)}, "repr: must return a string"},
		{"bool result", []Member{Method("__bool__", "", self, "")}, "__bool__: must return a bool"},
		{"contains result", []Member{Method("__contains__", "x", F2R(func(*specialPoint, int) int { return 0 }), "")},
			"__contains__: must return a bool"},
		{"float result", []Member{Method("__float__", "", self, "")}, "__float__: must return a float"},
		{"iter result", []Member{Method("__iter__", "", self, "")}, "__iter__: must return an instance of a class"},
		{"setitem result", []Member{Method("__setitem__", "k, v", F3R(func(*specialPoint, int, int) int { return 0 }), "")},
			"__setitem__: must return nothing"},
		{"iadd results", []Member{Method("__iadd__", "x", F2R2(func(*specialPoint, int) (int, int) { return 0, 0 }), "")},
			"__iadd__: must return nothing (the instance is the result) or one value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &Module{Name: "m", Items: []Item{NewClass[specialPoint]("P", "", tt.members...)}}
			_, err := m.Stub()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Stub() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestSpecialStubs holds the stub of each kind of special method to the
// signature Python expects of it: positional parameters, object for
// __eq__'s operand, the class for an in-place operator without a result,
// and __hash__ None for a class that compares by value without a hash;
// names CPython looks up by name are plain methods.
func TestSpecialStubs(t *testing.T) {
	m := &Module{Name: "m", Items: []Item{NewClass[specialPoint]("P", "",
		Method("__len__", "", F1R(func(*specialPoint) int { return 0 }), ""),
		Method("__getitem__", "i: int", F2RE(func(*specialPoint, int) (float64, error) { return 0, nil }), ""),
		Method("__setitem__", "i, x", F3(func(*specialPoint, int, float64) {}), ""),
		Method("__eq__", "other", F2R(func(*specialPoint, *specialPoint) bool { return true }), ""),
		Method("__iadd__", "x", F2(func(*specialPoint, float64) {}), ""),
		Method("__pow__", "e, mod=None", F3R(func(*specialPoint, float64, Optional[int]) *specialPoint { return nil }), ""),
		Method("__call__", "a, *, b=2", F3R(func(*specialPoint, int, int) int { return 0 }), ""),
		Method("__enter__", "", F1R(func(p *specialPoint) *specialPoint { return p }), ""),
	)}}
	stub, err := m.Stub()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"    def __len__(self, /) -> int: ...\n",
		"    def __getitem__(self, i: int | SupportsIndex, /) -> float: ...\n",
		"    def __setitem__(self, i: int | SupportsIndex, x: float, /) -> None: ...\n",
		"    def __eq__(self, other: object, /) -> bool: ...\n",
		"    def __iadd__(self, x: float, /) -> P: ...\n",
		// a default's value says more than "= ...": the docstring opens with the signature as Python tools show it
		"    def __pow__(self, e: float, mod: int | SupportsIndex | None = ..., /) -> P:\n" +
			"        \"\"\"__pow__(self, e: float, mod: int | None = None, /) -> P\"\"\"\n",
		"    def __call__(self, /, a: int | SupportsIndex, *, b: int | SupportsIndex = ...) -> int:",
		"    def __enter__(self, /) -> P: ...\n",
		"    __hash__: ClassVar[None]  # type: ignore[assignment]\n",
	} {
		if !strings.Contains(stub, want) {
			t.Errorf("the stub has no line %q:\n%s", want, stub)
		}
	}
}

// TestSpecialTable holds the table of special methods to special.h's
// indices: each has its own, the comparisons in Py_LT … Py_GE's order, and
// each operator's reflection and in-place form after it.
func TestSpecialTable(t *testing.T) {
	seen := map[int]string{}
	for name, s := range specialMethods {
		if other, twice := seen[s.id]; twice {
			t.Errorf("%s and %s share index %d", name, other, s.id)
		}
		seen[s.id] = name
		if lookedUpByName[name] {
			t.Errorf("%s is a special method and looked up by name", name)
		}
	}
	if len(seen) != gdlNSpecial {
		t.Errorf("%d special methods, special.h has %d", len(seen), gdlNSpecial)
	}
	for i, name := range []string{"__lt__", "__le__", "__eq__", "__ne__", "__gt__", "__ge__"} {
		if specialMethods[name].id != specialMethods["__lt__"].id+i {
			t.Errorf("%s is not comparison %d", name, i)
		}
	}
	for name, s := range specialMethods {
		op := strings.Trim(name, "_")
		if r := specialMethods["__r"+op+"__"]; r != nil && r.group == s.group { // an operator: __add__ and __radd__
			in := specialMethods["__i"+op+"__"] // none for divmod
			if r.id != s.id+1 || (in != nil && in.id != s.id+2) {
				t.Errorf("%s: its reflection and in-place form are not next to it", name)
			}
		}
	}
}
