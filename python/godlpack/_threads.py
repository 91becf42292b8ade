"""godlpack's thread count: how many threads godlpack.ops may split a large tensor across."""

from godlpack import _core

__all__ = ["get_num_threads", "set_num_threads"]

# Bound Go functions (package pymodule) of a module named godlpack, so that they pickle as godlpack's; their
# docstrings come from pyext/threads.go, the count is package vec's.
set_num_threads = _core._threads.set_num_threads
get_num_threads = _core._threads.get_num_threads
