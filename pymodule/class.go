package pymodule

import (
	"reflect"
	"unsafe"

	"github.com/godlpack/godlpack/internal/fmt"
)

// A Class is a Go type bound as a Python class of its module, made by
// [NewClass]: a constructor ([Init]), methods ([Method], [StaticMethod]),
// special methods (a [Method] named __len__, __getitem__, __add__ …, which
// fills its slot), properties ([Property], [Field]), class attributes
// ([Const]), its repr ([Repr]), equality and hash ([Equality]) and pickling
// ([Pickle]).
//
// An instance holds a *T: the Go value lives as long as the Python object
// and is let go when it dies (the instance names its value by a slot of the
// class's table, which keeps the value alive; C reads the value only for a
// [Field], once Go pinned it). A
// function that returns a *T already wrapped returns that same Python
// object, so one pointer has one Python object. Parameters of type *T take
// the class's instances (TypeError for anything else, None only for an
// [Optional]).
//
// No two Go calls run on one value at once, but shared ones
// ([Function.Shared], getters, [Field] reads): every call holds each
// instance it takes until it returns, since other threads may run meanwhile (the
// call releases the GIL, [Function.WithoutGIL], or Python code runs inside
// it: a later argument's conversion, a callback, a destructor). A call on
// another thread that takes one of them meanwhile does not wait but raises
// RuntimeError (as PyO3's "already borrowed"): "<function>(): argument
// '<parameter>': the <module>.<Class> is in use by <holder>() on another
// thread, which released the GIL or runs Python code". That includes the
// repr, ==, hash, properties and pickling, which are calls of the class's
// Go functions. A call on the holder's own thread is made by Python code the
// holder runs (a callback, a conversion), while the holder's Go code waits
// or has not started, and goes through.
//
// The class is final: Python cannot subclass it (TypeError), nor set
// attributes on it or its instances.
type Class struct{ def *classDef }

type classDef struct {
	name, doc string
	module    string       // the module's name, once the module is planned
	typ       reflect.Type // *T
	newZero   Fn           // func() *T { return new(T) }, for [InitZero]
	init      *Function
	funcs     []Function    // methods and static methods
	props     []propertyDef // in their order, fields among them
	attrs     []Constant
	repr      *Fn
	reprGiven bool // by Repr, not a String method
	eq, hash  *Fn
	state     *Fn
	restore   *Fn
	table     *classTable // once made
	buffers   []uintptr   // the offsets in T of its Buffers, which an instance's death frees
}

type propertyDef struct {
	name, doc string
	get, set  Fn
	field     *fieldDef // a [Field], read by C, in place of get
}

// A fieldDef is what C reads for a [Field], where in the Go value.
type fieldDef struct {
	offset uintptr
	kind   kind
	err    error // what is wrong with it, reported when the class is checked
}

// A Member is part of a [Class]: [Init], a [Method], a [StaticMethod], a
// [Property], a [Const], [Repr], [Equality] or [Pickle].
type Member interface{ member(*classDef) }

// NewClass binds the Go type T (no pointer or interface type) as the Python
// class name, described by doc and its members. Without [Repr], a *T with a
// String method shows as String returns it. The class's Python type names
// *T's parameters and results (instances), and its methods' first Go
// parameter is the *T of the instance they are called on (a method
// expression: (*T).Update). A Go type is bound by one class of the library:
// a later module that binds it again fails to import.
func NewClass[T any](name, doc string, members ...Member) Class {
	d := &classDef{name: name, doc: doc, typ: reflect.TypeFor[*T](), newZero: F0R(func() *T { return new(T) }),
		buffers: buffersIn(reflect.TypeFor[T](), 0, nil)}
	if _, ok := any((*T)(nil)).(fmt.Stringer); ok {
		repr := F1R(func(t *T) string { return any(t).(fmt.Stringer).String() })
		d.repr = &repr
	}
	for _, m := range members {
		m.member(d)
	}
	return Class{d}
}

type memberFunc func(*classDef)

func (f memberFunc) member(d *classDef) { f(d) }

// Init is the class's constructor: fn returns a *T, or a *T and an error,
// from the parameters params (as [Def]'s). A class without one has
// instances only from functions that return them; calling it is a
// TypeError.
func Init(params string, fn Fn) Member {
	return memberFunc(func(d *classDef) {
		f := Function{name: "__init__", params: params, fn: fn, role: roleInit, class: d}
		d.init = &f
	})
}

// InitZero is the class's constructor of no parameters, whose instance
// holds a new zero T (new(T)), as nanobind's nb::init<>(): Class() in
// Python.
func InitZero() Member {
	return memberFunc(func(d *classDef) {
		f := Function{name: "__init__", fn: d.newZero, role: roleInit, class: d}
		d.init = &f
	})
}

// Method returns a method of the class, name(params), whose Go function's
// first parameter is the instance's *T (a method expression, (*T).Update)
// and whose params name the others, as [Def]'s. [Function.WithoutGIL] and
// [Function.Returning] apply as for functions; [Function.Shared] marks a
// method that only reads its instance.
//
// A method named as one of Python's special methods fills its type's slot,
// as a Python class's does: __len__, __getitem__, __setitem__,
// __delitem__, __contains__, __iter__, __next__, __call__, __repr__,
// __str__, __bool__, __hash__, the comparisons (__eq__ … __ge__), the
// binary operators (__add__, __sub__, __mul__, __matmul__, __truediv__,
// __floordiv__, __mod__, __divmod__, __pow__, __and__, __or__, __xor__,
// __lshift__, __rshift__) with their reflected (__radd__ …) and in-place
// (__iadd__ …) forms, __neg__, __pos__, __abs__, __invert__, __index__,
// __int__ and __float__. Its parameters are positional (but __call__'s),
// their number and its result are the slot's, and an operand of an
// operator or a comparison that does not convert to its Go parameter
// declines (NotImplemented), so that Python tries the other operand's
// reflected method. Names CPython looks up by name (__enter__, __format__,
// __reversed__ …) are plain methods; __init__, __new__, __del__, another
// special name, and a slot given twice (Repr beside a __repr__ method) fail
// the import. godlpack's docs/binder.md lists each.
func Method(name, params string, fn Fn, doc string) Function {
	return Function{name: name, params: params, doc: doc, fn: fn, role: roleMethod}
}

// StaticMethod returns a static method of the class, a function of no
// instance (as [Def]'s).
func StaticMethod(name, params string, fn Fn, doc string) Function {
	return Function{name: name, params: params, doc: doc, fn: fn, role: roleStatic}
}

func (f Function) member(d *classDef) { d.funcs = append(d.funcs, f) }

// Property returns the property name of the class: get reads it from the
// instance (func(*T) R, or (R, error)), set, unless it is the zero [Fn],
// writes it (func(*T, V) or func(*T, V) error); a property without set is
// read-only (AttributeError). Both are adapters of Go functions, such as
// F1R((*Stats).Mean) and F2E((*Stats).SetWidth); [Getter] takes a method
// value as it is, for a read-only property.
func Property(name string, get, set Fn, doc string) Member {
	return memberFunc(func(d *classDef) { d.props = append(d.props, propertyDef{name: name, doc: doc, get: get, set: set}) })
}

// Getter returns the read-only property name of the class whose value get
// returns, a method value as it is:
//
//	pymodule.Getter("mean", (*Stats).Mean, "The mean of each column.")
//
// It is Property(name, F1R(get), Fn{}, doc). A getter that can fail, or a
// property that can be set, is a [Property].
func Getter[T, R any](name string, get func(*T) R, doc string) Member {
	return Property(name, F1R(get), Fn{}, doc)
}

// A FieldType is the type of a field that [Field] reads: a bool, an
// integer, a float or a complex, as the Python bool, int, float or complex.
type FieldType interface {
	bool | int | int8 | int16 | int32 | int64 | uint | uint8 | uint16 | uint32 | uint64 | float32 | float64 |
		complex64 | complex128
}

// Field returns the read-only property name of the class whose value is the
// field of the instance's *T that at returns the address of:
//
//	pymodule.Field("count", func(s *Stats) *int64 { return &s.count }, "The rows seen.")
//
// C reads the field in place, without a call into Go, as nanobind's def_ro
// reads a C++ member: about a fifth of a [Property] getter's cost. So that
// C may keep the address, the first read of an instance's fields calls Go
// once to pin its value ([runtime.Pinner]), until the value is let go; an
// instance whose fields are never read costs nothing more. As a getter's
// call would,
// reading the field raises RuntimeError while a call on another thread
// that released the GIL holds the instance (see [Class]); Go code that
// writes the field from other goroutines must, as for any property, keep
// them from writing while Python reads.
//
// at is called once, on a zero T, when Field is called: it must return the
// address of a field of its argument itself, not of memory that a pointer
// in it points to (the module then fails to import).
func Field[T any, F FieldType](name string, at func(*T) *F, doc string) Member {
	f := fieldDef{kind: goKinds[reflect.TypeFor[F]().Kind()]}
	f.offset, f.err = offsetOf(at)
	return memberFunc(func(d *classDef) {
		if f.err == nil && d.typ != reflect.TypeFor[*T]() {
			f.err = fmt.Errorf("a field of %v, in the class of %v", reflect.TypeFor[T](), d.typ.Elem())
		}
		d.props = append(d.props, propertyDef{name: name, doc: doc, field: &f})
	})
}

// offsetOf returns the offset in T of the field at returns the address of.
func offsetOf[T, F any](at func(*T) *F) (offset uintptr, err error) {
	zero := new(T)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("its accessor panicked on a zero %v: %v", reflect.TypeFor[T](), r)
		}
	}()
	base, p := uintptr(unsafe.Pointer(zero)), uintptr(unsafe.Pointer(at(zero)))
	if p < base || p-base > unsafe.Sizeof(*zero) || unsafe.Sizeof(*zero)-(p-base) < unsafe.Sizeof(*new(F)) {
		return 0, fmt.Errorf("its accessor must return the address of a field of its argument, a *%v", reflect.TypeFor[T]())
	}
	return p - base, nil
}

func (c Constant) member(d *classDef) { d.attrs = append(d.attrs, c) }

// Repr makes fn (func(*T) string) the class's repr.
func Repr(fn Fn) Member { return memberFunc(func(d *classDef) { d.repr, d.reprGiven = &fn, true }) }

// Equality makes instances of the class compare with eq (func(*T, *T)
// bool, for two instances of the class; identity otherwise) and hash with
// hash (func(*T) with an integer result); a zero hash [Fn] leaves them
// unhashable, as a Python class with __eq__ and no __hash__. Without
// Equality, instances compare and hash by identity.
func Equality(eq, hash Fn) Member {
	return memberFunc(func(d *classDef) {
		d.eq = &eq
		if hash.bind != nil {
			d.hash = &hash
		}
	})
}

// Pickle makes the class's instances pickle (and copy) as the results of
// state (func(*T) with one or more results, an error last allowed), which
// restore (func taking those results, returning *T or (*T, error)) turns
// back into an instance: in any process that imports the module alone.
// Without Pickle, pickling or copying an instance is a TypeError.
func Pickle(state, restore Fn) Member {
	return memberFunc(func(d *classDef) { d.state, d.restore = &state, &restore })
}

// qualified is the class's name in its module: "rowstats.Accumulator".
func (d *classDef) qualified() string { return d.module + "." + d.name }

// check says what is wrong with the class's description, before any of its
// functions is planned.
func (d *classDef) check() error {
	if !identifier(d.name) {
		return fmt.Errorf("class %q: not a Python name", d.name)
	}
	if d.typ.Elem().Kind() == reflect.Pointer || d.typ.Elem().Kind() == reflect.Interface {
		return fmt.Errorf("class %s: a class binds a Go type that is no pointer or interface, not %v", d.name, d.typ.Elem())
	}
	if d.typ.Elem().Size() == 0 {
		// Go may give every value of no size one address, and one address has one Python object: every
		// instance would be the same object.
		return fmt.Errorf("class %s: a Go type of no size (%v) has no address of its own for each value: give it a field",
			d.name, d.typ.Elem())
	}
	for _, p := range d.props {
		if p.field != nil && p.field.err != nil {
			return fmt.Errorf("class %s: field %s: %v", d.name, p.name, p.field.err)
		}
	}
	return d.checkSpecials()
}

func (c Class) in(s step, b *builder) (string, error) {
	d := c.def
	switch s {
	case stepDeclare:
		if err := d.check(); err != nil {
			return "", err
		}
		if b.sc.class(d.typ) != nil {
			return "", fmt.Errorf("class %s: the Go type %v is bound already", d.name, d.typ.Elem())
		}
		d.module = b.sc.module
		b.sc.classes[d.typ] = d
		return d.name, nil
	case stepPrepare:
		return "", d.reserve()
	case stepMake:
		if err := d.make(b.m, b.module, b.sc); err != nil {
			return "", fmt.Errorf("class %s: %w", d.name, err)
		}
	case stepStub:
		def, err := b.st.class(d, b.sc)
		if err != nil {
			return "", fmt.Errorf("%s.%s: %v", b.st.module, d.name, err)
		}
		return def, nil
	case stepTensors:
		for _, f := range d.funcs {
			f.class = d
			if f.handsTensors(b.sc) {
				return handing(true)
			}
		}
		for _, p := range d.props {
			if p.field == nil && (Function{name: p.name, fn: p.get, role: roleGetter, class: d}).handsTensors(b.sc) {
				return handing(true)
			}
		}
		return handing(d.state != nil &&
			(Function{name: "__getstate__", fn: *d.state, role: roleMethod, class: d}).handsTensors(b.sc))
	}
	return "", nil
}
