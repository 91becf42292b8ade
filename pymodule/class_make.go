package pymodule

// #include <stdlib.h>
// #include "pymodule.h"
import "C"

import (
	"strings"
	"unsafe"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/internal/fmt"
)

// reserve gives the class its C id and its table, before its module's
// functions are planned: they may take or return its instances.
func (d *classDef) reserve() error {
	id := C.gdl_class_reserve()
	if id < 0 {
		return cpython.PythonError("reserving class " + d.name)
	}
	t := &classTable{def: d, id: int32(id)}
	tablesMu.Lock()
	var list []*classTable
	if p := tables.Load(); p != nil {
		list = *p
	}
	for len(list) <= int(id) {
		list = append(list[:len(list):len(list)], nil)
	}
	list[id] = t
	tables.Store(&list)
	tablesMu.Unlock()
	d.table = t
	return nil
}

// make makes the class in module m (named module), once each of its
// functions is planned in sc: its type, its functions, its properties.
func (d *classDef) make(m *C.PyObject, module string, sc *scope) error {
	t := d.table
	qualified := d.qualified()
	var props []C.gdl_property
	var keep []*C.gdl_bound
	bound := func(f Function) (*C.gdl_bound, error) {
		b, err := plan(f, sc)
		if err != nil {
			return nil, err
		}
		cb, err := b.register()
		if err != nil {
			return nil, err
		}
		keep = append(keep, cb)
		return cb, nil
	}
	for _, p := range d.props {
		if f := p.field; f != nil {
			props = append(props, C.gdl_property{name: C.CString(p.name), doc: C.CString(p.doc),
				offset: C.uint32_t(f.offset), kind: C.uint8_t(f.kind)})
			continue
		}
		get, err := bound(Function{name: p.name, params: "", fn: p.get, role: roleGetter, class: d})
		if err != nil {
			return fmt.Errorf("property %s: %v", p.name, err)
		}
		var set *C.gdl_bound
		if p.set.bind != nil {
			if set, err = bound(Function{name: p.name, params: "value", fn: p.set, role: roleSetter, class: d}); err != nil {
				return fmt.Errorf("property %s: %v", p.name, err)
			}
		}
		props = append(props, C.gdl_property{name: C.CString(p.name), doc: C.CString(p.doc), get: get, set: set})
	}
	rec := C.gdl_class_of(C.int32_t(t.id))
	specials := d.specials()
	records := make([]*C.gdl_bound, len(specials))
	for i, s := range specials { // before the type, whose slots are those its special methods fill
		cb, err := bound(s.f)
		if err != nil {
			return fmt.Errorf("%s: %v", s.member, err)
		}
		records[i], rec.special[s.method.id] = cb, cb
	}
	cprops := (*C.gdl_property)(C.calloc(C.size_t(len(props)+1), C.sizeof_gdl_property))
	copy(unsafe.Slice(cprops, len(props)+1), props)
	doc := d.doc
	if d.init != nil {
		b, err := plan(*d.init, sc)
		if err != nil {
			return fmt.Errorf("constructor: %v", err)
		}
		doc = b.textSignature() + "\n--\n\n" + doc // the class's __text_signature__, which inspect.signature reads
	}
	cq, cdoc := C.CString(qualified), C.CString(doc)
	rc := C.gdl_class_make(C.int32_t(t.id), m, cq, cdoc, cprops, C.int(len(props)))
	C.free(unsafe.Pointer(cq))
	C.free(unsafe.Pointer(cdoc))
	if rc != 0 {
		return cpython.PythonError("making class " + qualified)
	}
	rec.frees = len(d.buffers) > 0
	if err := d.fillSpecials(specials, records, module); err != nil {
		return err
	}
	var err error
	if d.init != nil {
		f := *d.init
		f.class = d
		if rec.init, err = bound(f); err != nil {
			return fmt.Errorf("constructor: %v", err)
		}
	}
	if d.state != nil {
		if rec.state, err = bound(Function{name: "__getstate__", fn: *d.state, role: roleMethod, class: d}); err != nil {
			return fmt.Errorf("pickle state: %v", err)
		}
		n := len(d.state.out)
		names := make([]string, n)
		for i := range names {
			names[i] = fmt.Sprintf("state%d", i)
		}
		restore, err := bound(Function{name: "_restore", params: strings.Join(names, ", ") + ", /", fn: *d.restore,
			role: roleStatic, class: d})
		if err != nil {
			return fmt.Errorf("pickle restore: %v", err)
		}
		f, err := d.function(restore, module, roleMethod) // the function itself, which pickles by its name
		if err != nil {
			return err
		}
		rec.restore = f // kept by the class record, as long as the process
	}
	for _, f := range d.funcs {
		f.class = d
		if f.special() != nil {
			continue // in the dict already
		}
		cb, err := bound(f)
		if err != nil {
			return fmt.Errorf("%s: %v", f.name, err)
		}
		o, err := d.function(cb, module, f.role)
		if err != nil {
			return err
		}
		if err := d.set(f.name, o); err != nil {
			return err
		}
	}
	for _, a := range d.attrs {
		o, err := a.object()
		if err != nil {
			return err
		}
		if err := d.set(a.name, o); err != nil {
			return err
		}
	}
	if rec.restore != nil {
		C.Py_IncRef(rec.restore)
		s := C.PyStaticMethod_New(rec.restore)
		C.Py_DecRef(rec.restore)
		if s == nil {
			return cpython.PythonError("making " + d.name + "._restore")
		}
		if err := d.set("_restore", s); err != nil {
			return err
		}
	}
	return nil
}

// function returns the function object of a method (a descriptor) or a
// static method (a staticmethod around it).
func (d *classDef) function(cb *C.gdl_bound, module string, role funcRole) (*C.PyObject, error) {
	cmodule := C.CString(module)
	name := C.PyUnicode_FromString(cmodule)
	C.free(unsafe.Pointer(cmodule))
	if name == nil {
		return nil, cpython.PythonError("naming a method")
	}
	defer C.Py_DecRef(name)
	f := C.gdl_function_new(cb, name, nil)
	if f == nil {
		return nil, cpython.PythonError("making method " + C.GoString(cb.qualname))
	}
	if role != roleStatic {
		return f, nil
	}
	s := C.PyStaticMethod_New(f)
	C.Py_DecRef(f)
	if s == nil {
		return nil, cpython.PythonError("making static method " + C.GoString(cb.qualname))
	}
	return s, nil
}

// set puts o (a new reference, which set takes) in the class's dict as name.
func (d *classDef) set(name string, o *C.PyObject) error {
	cname := C.CString(name)
	rc := C.gdl_class_set(C.int32_t(d.table.id), cname, o)
	C.free(unsafe.Pointer(cname))
	C.Py_DecRef(o)
	if rc != 0 {
		return cpython.PythonError("adding " + name + " to class " + d.name)
	}
	return nil
}
