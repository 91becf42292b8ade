// Package pymodule makes ordinary Go functions and types the functions and
// classes of a Python extension module, with no C to write: the binder of a
// Go extension built with go build -buildmode=c-shared. godlpack's
// docs/binder.md states its rules, item by item.
//
// A [Module] describes the extension: its name, its docstring and its items
// ([Item]): functions ([Def]), classes ([NewClass]), enums ([NewEnum]),
// exception classes ([NewException]) and constants ([Const]).
// [Module.Init] makes the module object that the extension's PyInit_<name>
// returns, and [Module.Main] writes the module's type stub when the package
// runs as a program ([New] makes the module without a stub):
//
//	func clip(x pymodule.Tensor, lo, hi float64) (raised, lowered int64) { … }
//
//	var module = pymodule.Module{Name: "rowstats", Doc: "Row statistics.", Items: []pymodule.Item{
//		pymodule.Def("clip_", "x: tensor[float32|float64, writable], /, lo=-inf, hi=inf", pymodule.F3R2(clip),
//			"Clip x in place to [lo, hi]; return the counts raised and lowered."),
//	}}
//
//	//export PyInit_rowstats
//	func PyInit_rowstats() *C.PyObject { return (*C.PyObject)(module.Init()) } // nil with the exception set
//
//	func main() { module.Main() } // go run . -pyi rowstats.pyi writes the stub
//
// A function is registered with its Python parameters, written as Python
// writes them, defaults, positional-only "/" and keyword-only "*" included.
// The adapter (F3R2 here: three parameters, two results; [F0] … [F10R3E])
// carries the Go types; [Def] reads them once, at registration, and plans
// each conversion. A call parses its arguments in C (vectorcall, keywords
// included), converts numbers in C, takes every tensor argument through
// package [capsule]'s import path, and crosses into Go once with one C
// struct; results come back the same way. No reflection and no Go heap
// allocation happen per call (a function's own allocations aside, string
// arguments, which are copied, and callbacks, each a Go func value made for
// its call).
//
// Parameters and results map Go types to Python values:
//
//	bool                        bool (and NumPy's bool)
//	int8 … int64, uint8 … uint64 int, or any object with __index__; OverflowError when out of range
//	float32, float64            float, int (OverflowError beyond float64), anything with __float__
//	complex64, complex128       complex, float, int
//	string, []byte              str, bytes (copied into Go)
//	Tensor                      any DLPack producer: NumPy, PyTorch, JAX, godlpack, a capsule (parameters)
//	[]T of numbers              a 1-D C-contiguous tensor of T's dtype, converted for the call (parameters);
//	                            a tensor over the slice, zero-copy (results)
//	Array                       a tensor over its memory, zero-copy (results)
//	Optional[T]                 T or None (parameters)
//	cpython.Object              any object (borrowed as a parameter, a new reference as a result)
//	*T of a Class               an instance of the class: one Python object per pointer
//	E of an Enum                a member of the enum (or, as a parameter, an int one of its members has)
//	a Go func type              any callable, which the Go function calls back (parameters)
//
// A tensor result is the module's Tensor by default: the module holds
// Tensor, DType and Device ([pytensor.AddTensorTypes]; rowstats.Tensor in a
// module rowstats), the same object as godlpack.Tensor, over the Go or C
// memory without a copy and keeping it alive. [Function.Returning] makes it
// a NumPy array, a PyTorch tensor or a godlpack.Tensor instead.
//
// A last result of type error becomes the Python exception of the
// [ExceptionClass] it selects, or else of [cpython.ExceptionOf] (a
// RuntimeError for an error that names none); several results come back as
// a tuple. [ArgError] and [ArgErrorAt] name the argument an error is about
// as the binder's own refusals do ("f(): argument 'gamma' must …").
//
// A tensor parameter's annotation says what it accepts, as nanobind's
// nb::ndarray<…> does: "x: tensor[float32|float64, (*, 3), C, writable]".
// Its items, in any order: dtypes joined by '|' (any dtype when none); a
// shape, with "*" for any size ("()" for 0-d; any number of dimensions when
// none); "C" or "F" for a contiguous layout; "writable" for a tensor the
// function writes in place (read-only, legacy, copied and self-overlapping
// tensors are refused); "device=name" (the default, "cpu", takes any memory
// the CPU reads; "any" takes every device); "convert" to accept a tensor of
// another layout, or a bool, integer or float tensor (float16 and bfloat16
// included) where float32 or float64 is asked, by a copy for the call (with
// "writable", another layout only: the copy is written back when the
// function returns no error).
// Mistakes name the function and the argument: "row_norms(): argument 'x'
// must be a 2-D float32 or float64 tensor, got a 3-D int64 one". Errors
// never name Go packages. What the function returns follows an arrow, as
// in a def statement: "x: tensor[float32, (*, *)], / -> tensor[float32,
// (*)]" (a tuple[…] of annotations for several results); a tensor
// result's dtypes and shape are held to each Array returned, a TypeError
// or ValueError when they differ.
//
// A [Class] is a Go type T bound by [NewClass]: its instances hold a *T,
// which lives as long as the Python object. [Init] is its constructor,
// [Method] and [StaticMethod] its methods, [Property] its properties,
// [Const] its class attributes, [Repr] its repr (a String method
// otherwise), [Equality] its == and hash (identity otherwise) and [Pickle]
// its pickling; a [Method] named as a special method (__len__,
// __getitem__, __add__ …) fills its slot. A call that releases the GIL
// holds the instances it takes: another call that takes one of them
// meanwhile raises RuntimeError, unless both are shared
// ([Function.Shared]). A [Buffer] among its value's fields is C memory the
// instance owns, freed when it dies; a [Buffer.View] returned by a method
// keeps the instance alive and the Buffer from resizing (BufferError)
// while the view lives.
//
// A parameter of a Go function type takes a Python callable: the Go function
// gets a func value that calls it, taking the GIL for each call, with its
// arguments converted as a bound function's results are and its results as
// a bound function's arguments are. An exception the callable raises is the
// one the bound call raises, with its traceback. The func value is the
// call's: once the call returns it calls nothing ([ErrCallbackExpired]).
//
// [NewEnum] binds a Go named integer type as an enum.IntEnum of the module,
// [NewException] makes an exception class that Go errors select, and
// [Const] a module attribute of a bool, a number, a string or bytes.
//
// Functions are built-in functions of their module: __module__, __qualname__,
// pickling by name, __text_signature__ and __doc__ are CPython's own, and
// inspect.signature (__signature__) and pydoc show each parameter's and
// the result's annotation, tensors' as declared. A call in a process forked after the module was imported
// raises RuntimeError (the Go runtime does not survive fork); a panic
// becomes a RuntimeError. [Function.WithoutGIL] releases the GIL around the
// Go work, which then must not touch Python objects; the tensors it received
// stay valid until it returns.
//
// Every Go extension carries its own Go runtime: [New] joins it to the
// process's others through [cpython.ClaimProcess] (on Linux with glibc they
// share the process; elsewhere the second one is an ImportError).
//
// The Go runtime preempts long-running Go code by sending SIGURG to its
// thread. A Python program that installs a SIGURG handler of its own
// replaces the runtime's and then sees those signals too. Only the
// environment the process starts with can turn them off
// (GODEBUG=asyncpreemptoff=1): //go:debug and go.mod refuse that setting,
// and the runtime has read the environment before any code of the
// extension runs. Turning them off lets the garbage collector wait for
// loops it can no longer interrupt (godlpack's bench/preemption.py measures it).
package pymodule
