package main

// The Python C API's symbols (Py_IncRef, PyExc_TypeError, …) come from the
// interpreter that loads this extension, so the c-shared build leaves them
// undefined, as every extension module does, and never links libpython.
// `go build ./...` links this package as an executable too, only to check
// it; there the linker would reject every undefined Python symbol. Ignoring
// symbols left undefined by object files lets that check pass and leaves the
// c-shared library as it was (a shared library's undefined symbols are
// allowed already). The executable is never meant to run.

// #cgo LDFLAGS: -Wl,--unresolved-symbols=ignore-in-object-files
import "C"

// A c-shared library is built from package main, whose main never runs.
func main() {}
