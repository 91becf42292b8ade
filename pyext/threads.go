package main

import (
	"github.com/godlpack/godlpack/cpython"
	"github.com/godlpack/godlpack/pymodule"
	"github.com/godlpack/godlpack/vec"
)

// The thread count of package vec, which godlpack.ops splits large tensors by, as godlpack.set_num_threads and
// godlpack.get_num_threads: functions of a module named godlpack (made as godlpack._core._threads), so that
// they pickle by the names the package gives them.
var threadFunctions = []pymodule.Item{
	pymodule.Def("set_num_threads", "n: int, /", pymodule.F1E(setNumThreads), `Set how many threads godlpack.ops may use.

A large tensor is split across up to n threads, the calling one among
them, with the GIL released; 1 keeps every kernel on the calling thread.
The default is the environment variable GODLPACK_NUM_THREADS, read at
import, when it is a positive integer, and otherwise the CPU cores the
process may use. Raises ValueError unless n is positive. A Go extension
built on godlpack has a count of its own (its own Go runtime), which it
reads from GODLPACK_NUM_THREADS too.`),
	pymodule.Def("get_num_threads", "", pymodule.F0R(vec.Threads),
		`Return how many threads godlpack.ops may use (see set_num_threads).`),
}

func setNumThreads(n int) error {
	if n < 1 {
		return cpython.Errorf(cpython.ValueError, "the thread count must be positive, not %d", n)
	}
	vec.SetThreads(n)
	return nil
}
