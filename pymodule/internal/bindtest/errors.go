package main

import (
	"strings"

	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
)

// exceptionKinds are the kinds of cpython.Exception by their Python names, Exception (0) among them.
var exceptionKinds = func() map[string]cpython.Exception {
	kinds := map[string]cpython.Exception{}
	for e := cpython.Exception(0); e <= cpython.StopIteration; e++ {
		kinds[e.String()] = e
	}
	return kinds
}()

// faults are exception classes of every base, by the base's name: TypeFault derives from TypeError,
// StopIterationFault from StopIteration, ExceptionFault from Exception.
var faults = func() map[string]*pymodule.ExceptionClass {
	classes := map[string]*pymodule.ExceptionClass{}
	for name, e := range exceptionKinds {
		classes[name] = pymodule.NewException(strings.TrimSuffix(name, "Error")+"Fault", e, "A fault derived from "+name+".")
	}
	return classes
}()

var errorItems = func() []pymodule.Item {
	items := []pymodule.Item{
		pymodule.Def("arg_error", "kind: str, by: str, /, gamma=0", pymodule.F3E(argError),
			"An error of the kind named (its Python name) about gamma, named by name ('name') or by position."),
		pymodule.Def("raise_fault", "base: str, /, by=''", pymodule.F2E(raiseFault),
			"Raise the exception class derived from base (its Python name), about the argument by when it is 'name' or 'position'."),
	}
	for e := cpython.Exception(0); e <= cpython.StopIteration; e++ {
		items = append(items, faults[e.String()])
	}
	return items
}()

// argError returns an error of kind about gamma, named by name or by its position (2).
func argError(kind, by string, gamma int) error {
	exc, ok := exceptionKinds[kind]
	if !ok || exc == 0 {
		return cpython.Errorf(cpython.ValueError, "no kind %q", kind)
	}
	if by == "name" {
		return pymodule.ArgError(exc, "gamma", "must be %d, not %d", gamma+1, gamma)
	}
	return pymodule.ArgErrorAt(exc, 2, "must be %d, not %d", gamma+1, gamma)
}

// raiseFault returns an error of the class derived from base: about no argument, or about by, named by name or by position (1).
func raiseFault(base, by string) error {
	switch by {
	case "name":
		return faults[base].ArgError("by", "is a fault of %s", base)
	case "position":
		return faults[base].ArgErrorAt(1, "is a fault of %s", base)
	}
	return faults[base].Errorf("a fault of %s", base)
}
