"""Bad arguments to every public function and method: a clear exception, never a crash or an abort.

Wrong types are TypeError, values out of range ValueError or OverflowError, a size that cannot be
allocated MemoryError (the allocation can fail and say so; it never aborts the process).
"""

from __future__ import annotations

import ctypes
import gc
from typing import Any, Callable, Sequence

import numpy as np
import pytest

import godlpack
import godlpack.ops
from dlpack_ctypes import IS_COPIED, decode

Call = Callable[[], Any]


def tensor() -> godlpack.Tensor:
    return godlpack.arange(4)


# ---- argument counts and keywords ----

WRONG_CALLS: dict[str, tuple[Call, str]] = {
    "empty()": (lambda: godlpack.empty(), "missing required argument 'shape'"),
    "empty(3, 'float32', 1)": (lambda: godlpack.empty(3, "float32", 1), "at most 2 positional"),
    "empty(shape=, unknown=)": (lambda: godlpack.empty(shape=3, order="C"), "unexpected keyword argument 'order'"),
    "empty(3, shape=3)": (lambda: godlpack.empty(3, shape=3), "multiple values for argument 'shape'"),
    "zeros()": (lambda: godlpack.zeros(), "missing required argument 'shape'"),
    "zeros(3, dtype=, dtype2)": (lambda: godlpack.zeros(3, "int8", dtype="int8"), "multiple values"),
    "zeros(device=)": (lambda: godlpack.zeros(3, device="cpu"), "unexpected keyword argument 'device'"),
    "full(3)": (lambda: godlpack.full(3), "missing required argument 'value'"),
    "full()": (lambda: godlpack.full(), "missing required argument 'shape'"),
    "full(3, 1, 'int8', 0)": (lambda: godlpack.full(3, 1, "int8", 0), "at most 3 positional"),
    "full(fill_value=)": (lambda: godlpack.full(3, fill_value=1), "unexpected keyword argument 'fill_value'"),
    "arange()": (lambda: godlpack.arange(), "requires stop to be specified"),
    "arange(start=)": (lambda: godlpack.arange(start=4), "requires stop to be specified"),
    "arange(0, 4, 1, 'int8', 0)": (lambda: godlpack.arange(0, 4, 1, "int8", 0), "at most 4 positional"),
    "arange(n=)": (lambda: godlpack.arange(n=4), "unexpected keyword argument 'n'"),
    "from_dlpack()": (lambda: godlpack.from_dlpack(), "exactly one positional argument"),
    "from_dlpack(x, y)": (lambda: godlpack.from_dlpack(tensor(), "cpu"), "exactly one positional argument"),
    "from_dlpack(x=)": (lambda: godlpack.from_dlpack(x=tensor()), "exactly one positional argument"),
    "from_dlpack(stream=)": (lambda: godlpack.from_dlpack(tensor(), stream=None),
                             "unexpected keyword argument 'stream'"),
    "__dlpack__(positional)": (lambda: tensor().__dlpack__(None), "no positional arguments"),
    "__dlpack__(unknown=)": (lambda: tensor().__dlpack__(version=(1, 0)), "unexpected keyword argument 'version'"),
    "__dlpack_device__(1)": (lambda: tensor().__dlpack_device__(1), "takes no arguments"),
    "data_ptr(1)": (lambda: tensor().data_ptr(1), "takes no arguments"),
    "tolist(1)": (lambda: tensor().tolist(1), "takes no arguments"),
    # The types' constructors take their arguments through the one parser, in its words.
    "DType()": (lambda: godlpack.DType(), "DType() missing required argument 'name'"),
    "DType(a, b)": (lambda: godlpack.DType("float32", "int8"), "DType() takes at most 1 positional argument (2 given)"),
    "DType(a, name=)": (lambda: godlpack.DType("float32", name="int8"), "got multiple values for argument 'name'"),
    "DType(kind=)": (lambda: godlpack.DType(kind="f"), "DType() got an unexpected keyword argument 'kind'"),
    "Device()": (lambda: godlpack.Device(), "Device() missing required argument 'device'"),
    "Device(a, b, c)": (lambda: godlpack.Device("cuda", 0, 1), "Device() takes at most 2 positional arguments (3 given)"),
    "Device(id=)": (lambda: godlpack.Device("cuda", id=0), "Device() got an unexpected keyword argument 'id'"),
    "Tensor()": (lambda: godlpack.Tensor(), "cannot create 'godlpack.Tensor' instances"),
}


@pytest.mark.parametrize("name", sorted(WRONG_CALLS))
def test_wrong_argument_count_or_keyword_is_type_error(name: str) -> None:
    call, words = WRONG_CALLS[name]
    with pytest.raises(TypeError, match=words.replace("(", "\\(").replace(")", "\\)")):
        call()


# ---- keyword names from C callers: non-str names and repeated names are TypeError ----

_vectorcall = ctypes.pythonapi.PyObject_Vectorcall
_vectorcall.restype = ctypes.py_object
_vectorcall.argtypes = [ctypes.py_object, ctypes.POINTER(ctypes.py_object), ctypes.c_size_t, ctypes.py_object]


def vectorcall(f: Any, args: Sequence[Any], kwnames: tuple[Any, ...], kwvalues: Sequence[Any]) -> Any:
    """Call f as C code may: with keyword names Python itself would refuse (non-str, repeated)."""
    values = [*args, *kwvalues]
    array = (ctypes.py_object * max(1, len(values)))(*values)
    return _vectorcall(f, array, len(args), kwnames)


NON_STR_NAMES = [1, b"dtype_\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", (), None]


@pytest.mark.parametrize("name", NON_STR_NAMES, ids=repr)
def test_module_function_non_str_keyword(name: Any) -> None:
    with pytest.raises(TypeError, match="keywords must be strings"):
        vectorcall(godlpack.zeros, (3,), (name,), ("float32",))
    with pytest.raises(TypeError, match="keywords must be strings"):
        vectorcall(godlpack.from_dlpack, (godlpack.zeros(3),), (name,), (None,))


@pytest.mark.parametrize("name", NON_STR_NAMES, ids=repr)
def test_dlpack_non_str_keyword(name: Any) -> None:
    t = godlpack.zeros(3)
    with pytest.raises(TypeError, match="keywords must be strings"):
        vectorcall(t.__dlpack__, (), (name,), (True,))


def test_dlpack_repeated_keyword() -> None:
    t = godlpack.zeros(3)
    with pytest.raises(TypeError, match="multiple values for argument 'copy'"):
        vectorcall(t.__dlpack__, (), ("copy", "copy"), (True, None))
    with pytest.raises(TypeError, match="multiple values for argument 'max_version'"):
        vectorcall(t.__dlpack__, (), ("max_version", "max_version"), ((1, 0), None))
    # Distinct names in any order each reach their own parameter.
    d = decode(vectorcall(t.__dlpack__, (), ("copy", "max_version"), (None, (1, 0))))
    assert d.version == (1, 0) and d.data == t.data_ptr() and not d.flags & IS_COPIED
    d = decode(vectorcall(t.__dlpack__, (), ("copy", "max_version"), (True, (1, 1))))
    assert d.version == (1, 1) and d.data != t.data_ptr() and d.flags & IS_COPIED


def test_tensor_and_dtype_cannot_be_subclassed_or_modified() -> None:
    with pytest.raises(TypeError, match="not an acceptable base type"):
        type("Sub", (godlpack.Tensor,), {})
    t = tensor()
    for attr in ("shape", "strides", "dtype", "device", "readonly", "is_copied", "nbytes"):
        with pytest.raises(AttributeError, match="not writable"):
            setattr(t, attr, None)
    with pytest.raises(AttributeError):
        t.anything = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="not writable"):
        godlpack.DType("float32").bits = 8  # type: ignore[misc]


# ---- shapes ----

CREATORS: dict[str, Callable[[Any], Any]] = {
    "empty": lambda shape: godlpack.empty(shape),
    "zeros": lambda shape: godlpack.zeros(shape, dtype="float64"),
    "full": lambda shape: godlpack.full(shape, 7, dtype="int32"),
}


@pytest.mark.parametrize("create", sorted(CREATORS))
@pytest.mark.parametrize(
    "shape, words",
    [
        (2.0, "shape must be an int or a sequence of ints"),
        (None, "shape must be an int or a sequence of ints"),
        ({2, 3}, "got set"),
        ({2: 3}, "got dict"),
        (iter([2, 3]), "shape must be an int or a sequence of ints"),
        ((2.0, 3), "shape must hold ints, got float at index 0"),
        ((2, None), "shape must hold ints, got NoneType at index 1"),
        ("ab", "shape must hold ints, got str at index 0"),
        ([[2], [3]], "shape must hold ints, got list at index 0"),
        (np.float64(3), "shape must be an int or a sequence of ints"),
    ],
)
def test_shape_of_the_wrong_type_is_type_error(create: str, shape: Any, words: str) -> None:
    with pytest.raises(TypeError, match=words):
        CREATORS[create](shape)


@pytest.mark.parametrize("create", sorted(CREATORS))
@pytest.mark.parametrize("shape", [-1, (-1,), (2, -3), (0, -1), (3, 0, -(2**62))])
def test_negative_dimension_is_value_error(create: str, shape: Any) -> None:
    with pytest.raises(ValueError, match="negative dimensions are not allowed"):
        CREATORS[create](shape)


@pytest.mark.parametrize("create", sorted(CREATORS))
def test_too_many_dimensions_is_value_error(create: str) -> None:
    with pytest.raises(ValueError, match="65 dimensions, more than the 64 allowed"):
        CREATORS[create]((1,) * 65)
    assert CREATORS[create]((1,) * 64).ndim == 64


@pytest.mark.parametrize("create", sorted(CREATORS))
@pytest.mark.parametrize("shape", [2**63, (2, 2**64), -(2**70)])
def test_dimension_beyond_int64_is_overflow_error(create: str, shape: Any) -> None:
    with pytest.raises(OverflowError):
        CREATORS[create](shape)


@pytest.mark.parametrize("create", sorted(CREATORS))
@pytest.mark.parametrize(
    "shape",
    [(2**62, 4), (2**31, 2**31, 2**31), (2**63 - 1, 2), (3,) * 40],
)
def test_element_count_overflow_is_value_error(create: str, shape: Any) -> None:
    with pytest.raises(ValueError, match="overflows int64"):
        CREATORS[create](shape)


@pytest.mark.parametrize("create", sorted(CREATORS))
@pytest.mark.parametrize("shape", [2**62, (2**61, 2)])
def test_byte_size_overflow_is_value_error(create: str, shape: Any) -> None:
    """The element count fits in int64 but its size in bytes does not."""
    with pytest.raises(ValueError, match="overflows int64"):
        CREATORS[create](shape)


@pytest.mark.parametrize("create", sorted(CREATORS))
@pytest.mark.parametrize("shape", [(2**40, 2**10), 2**58, (2**45, 2**10, 2)])
def test_huge_allocation_is_memory_error(create: str, shape: Any) -> None:
    """Representable sizes far beyond any address space: malloc fails, and we say so instead of aborting."""
    gc.collect()
    before = godlpack._core._live_storages()
    with pytest.raises(MemoryError, match="cannot allocate"):
        CREATORS[create](shape)
    assert godlpack._core._live_storages() == before


def test_huge_allocations_of_every_kind_are_memory_errors() -> None:
    with pytest.raises(MemoryError):
        godlpack.arange(2**58, dtype="float64")
    with pytest.raises(MemoryError):
        godlpack.empty(2**63 - 64, dtype="uint8")
    with pytest.raises(MemoryError):
        godlpack.full((2**48, 2**10), 1.5, dtype="complex128")


def test_empty_shapes_are_fine() -> None:
    assert godlpack.empty(0).shape == (0,)
    assert godlpack.empty(()).shape == ()
    assert godlpack.zeros((0, 2**62)).size == 0, "a zero dimension makes any shape empty"
    assert godlpack.full([], 3).tolist() == 3.0
    assert godlpack.empty(np.int64(3)).shape == (3,)
    assert godlpack.empty((np.int32(2), np.uint8(3))).shape == (2, 3)


def test_shape_list_cleared_by_index() -> None:
    """An element's __index__ that empties the shape list must not pull the list from under the parser."""
    shape: list[Any] = []

    class Shrinks:
        def __index__(self) -> int:
            shape.clear()  # the parser read the list's length before; its items are gone now
            return 2

    shape.extend([Shrinks(), 3, 4])
    t = godlpack.empty(shape)
    assert t.shape == (2, 3, 4)


# ---- dtypes ----


@pytest.mark.parametrize("dtype", ["float33", "Float32", "float32 ", "", ">f4", "f3", "float32\0", "float_", "int4"])
def test_unknown_dtype_name_is_type_error(dtype: str) -> None:
    for make in (lambda: godlpack.empty(3, dtype=dtype), lambda: godlpack.full(3, 1, dtype=dtype),
                 lambda: godlpack.arange(3, dtype=dtype)):
        with pytest.raises(TypeError, match="not understood"):
            make()


@pytest.mark.parametrize("dtype", [5, 3.0, b"float32", ["float32"], object(), np.zeros(3)])
def test_dtype_of_the_wrong_type_is_type_error(dtype: Any) -> None:
    with pytest.raises(TypeError, match="dtype must be a godlpack.DType, a str"):
        godlpack.zeros(3, dtype=dtype)


def test_shape_from_a_numpy_array() -> None:
    # A NumPy array is a sequence that also has __index__: it is read as a sequence.
    assert godlpack.zeros(np.array([2, 3])).shape == (2, 3)
    assert godlpack.zeros(np.int64(4)).shape == (4,)


def test_dtype_with_a_lone_surrogate_is_unicode_error() -> None:
    with pytest.raises(UnicodeEncodeError):
        godlpack.empty(3, dtype="\ud800")


@pytest.mark.parametrize("prefix", ["", "x"], ids=["even", "odd"])
def test_long_non_ascii_dtype_name_is_named_whole(prefix: str) -> None:
    """A long non-ASCII name reaches the message whole: no byte buffer cuts it, inside a character or not."""
    name = prefix + "\u00e9" * 400
    with pytest.raises(TypeError, match="^data type") as info:
        godlpack.empty(3, dtype=name)
    assert f"'{name}'" in str(info.value)


def test_dtype_constructor() -> None:
    # As numpy.dtype("nope"): a TypeError, like the creation functions' dtype argument.
    with pytest.raises(TypeError, match="data type 'nope' not understood"):
        godlpack.DType("nope")
    with pytest.raises(TypeError, match="dtype must be a godlpack.DType, a str .* got int"):
        godlpack.DType(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        godlpack.DType(nme="float32")  # type: ignore[call-arg]
    assert godlpack.DType(name="float32") == "float32"
    assert godlpack.DType("float32") != 3
    with pytest.raises(TypeError, match="not supported"):
        godlpack.DType("float32") < godlpack.DType("int8")  # type: ignore[operator]


# ---- fill values ----


@pytest.mark.parametrize(
    "value, dtype, error, words",
    [
        ("1", "float32", TypeError, "fill value must be a bool, int, float or complex, got str"),
        (None, "int8", TypeError, "got NoneType"),
        ([1], "int8", TypeError, "got list"),
        (b"\x01", "uint8", TypeError, "got bytes"),
        (256, "uint8", OverflowError, "256 is out of range for uint8"),
        (-1, "uint8", OverflowError, "-1 is out of range for uint8"),
        (128, "int8", OverflowError, "out of range for int8"),
        (-129, "int8", OverflowError, "out of range for int8"),
        (2**63, "int64", OverflowError, "out of range for int64"),
        (2**64, "uint64", OverflowError, "out of range for uint64"),
        (-(2**63) - 1, "int64", OverflowError, "out of range for int64"),
        (2**64, "bool", OverflowError, "out of range for bool"),
        (2**1100, "float64", OverflowError, "too large to convert to float"),
        (float("nan"), "int32", ValueError, "NaN"),
        (float("inf"), "uint16", ValueError, "Inf"),
        (1e300, "int64", OverflowError, "out of range for int64"),
        (-1.0, "uint8", OverflowError, "out of range for uint8"),
        (1j, "float32", TypeError, "complex value"),
        (1 + 1j, "int64", TypeError, "complex value"),
    ],
)
def test_fill_value_out_of_range_or_of_the_wrong_type(value: Any, dtype: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words.replace("(", "\\(").replace("+", "\\+")):
        godlpack.full(3, value, dtype=dtype)


def test_fill_values_at_the_edges() -> None:
    assert godlpack.full(1, 2**64 - 1, dtype="uint64").tolist() == [2**64 - 1]
    assert godlpack.full(1, -(2**63), dtype="int64").tolist() == [-(2**63)]
    assert godlpack.full(1, 255, dtype="uint8").tolist() == [255]
    assert godlpack.full(1, 1e300, dtype="float32").tolist() == [float("inf")]
    assert godlpack.full(1, 0j + 2, dtype="float64").tolist() == [2.0]
    assert godlpack.full(2, np.int64(7), dtype="int16").tolist() == [7, 7], "NumPy integers are ints"
    assert godlpack.full(1, np.uint64(2**64 - 1), dtype="uint64").tolist() == [2**64 - 1]


# ---- arange ----


@pytest.mark.parametrize("n", ["3", (2, 3), [3], b"3", object()])
def test_arange_needs_numbers(n: Any) -> None:
    with pytest.raises(TypeError, match="arange\\(\\) stop must be a bool, int, float or complex"):
        godlpack.arange(n)


@pytest.mark.parametrize("n", [np.array([3, 4]), np.array([], dtype=np.int64)], ids=["2 elements", "empty"])
def test_arange_refuses_arrays(n: Any) -> None:
    """n is one integer, not a shape: the array's own __index__ refuses, and its TypeError reaches the caller."""
    with pytest.raises(TypeError, match="only integer scalar arrays can be converted to a scalar index"):
        godlpack.arange(n)


def test_arange_out_of_range() -> None:
    assert godlpack.arange(-1).tolist() == [], "as NumPy: a negative stop makes no elements"
    with pytest.raises(ValueError, match="would have 1.18[0-9.e+]* elements"):
        godlpack.arange(2**70)
    with pytest.raises(OverflowError, match="does not fit in int8"):
        godlpack.arange(129, dtype="int8")
    with pytest.raises(TypeError, match="arange of bool makes at most two elements"):
        godlpack.arange(3, dtype="bool")
    with pytest.raises(ValueError, match="overflows int64"):
        godlpack.arange(2**62)
    with pytest.raises(ZeroDivisionError, match="step must not be zero"):
        godlpack.arange(0, 4, 0)
    with pytest.raises(ValueError, match="has no length"):
        godlpack.arange(float("nan"))
    assert godlpack.arange(128, dtype="int8").tolist()[-1] == 127


# ---- from_dlpack ----


@pytest.mark.parametrize("x", [3, None, "tensor", b"", [1, 2], np.float64(1.0).item(), object()])
def test_from_dlpack_of_a_non_producer_is_type_error(x: Any) -> None:
    with pytest.raises(TypeError, match="needs an object with __dlpack__ or a DLPack capsule"):
        godlpack.from_dlpack(x)


@pytest.mark.parametrize("copy", [1, 0, "yes", [], np.bool_(True)])
def test_from_dlpack_copy_must_be_a_bool(copy: Any) -> None:
    with pytest.raises(TypeError, match="copy must be None or a bool"):
        godlpack.from_dlpack(tensor(), copy=copy)


@pytest.mark.parametrize(
    "device, words",
    [("gpu", "names no device"), ("CPU", "names no device"), ("cuda", "names no device index"),
     ("cpu:x", "names no device"), ("cuda:-1", "names no device"), ("cuda:2147483648", "names no device"),
     ((1,), "device must be a \\(device_type, device_id\\) tuple of ints"), ((1, 0, 0), "tuple of ints"),
     (("1", 0), "tuple of ints"), ((2, None), "only a CPU's id may be None"), ((2**70, 0), "out-of-range"),
     (1, "device must be a \\(device_type, device_id\\) tuple, a str"), ([1, 0], "got list")],
)
def test_from_dlpack_unknown_device_is_value_error(device: Any, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        godlpack.from_dlpack(tensor(), device=device)


# ---- __dlpack__ argument types ----


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(max_version=1), "max_version must be a tuple of two ints"),
        (dict(max_version=(1,)), "max_version must be a tuple of two ints"),
        (dict(max_version=[1, 0]), "max_version must be a tuple of two ints"),
        (dict(max_version=("1", 0)), "max_version must be a tuple of two ints"),
        (dict(stream=1.0), "stream must be None or an int"),
        (dict(stream="0"), "stream must be None or an int"),
        (dict(dl_device=1), "dl_device must be a"),
        (dict(dl_device=[1, 0]), "dl_device must be a"),
        (dict(dl_device=(1.0, 0)), "dl_device must be a tuple of two ints"),
        (dict(copy=1), "copy must be None or a bool"),
        (dict(copy="no"), "copy must be None or a bool"),
    ],
)
def test_dlpack_argument_of_the_wrong_type_is_type_error(kwargs: dict[str, Any], words: str) -> None:
    with pytest.raises(TypeError, match=words):
        tensor().__dlpack__(**kwargs)


def test_no_storage_is_left_by_failed_calls() -> None:
    """Each failed call above must free what it made before failing; run a mix and count storages."""
    gc.collect()
    before = godlpack._core._live_storages()
    failed: list[tuple[Call, type[Exception]]] = [
        (lambda: godlpack.full(3, 256, dtype="uint8"), OverflowError),
        (lambda: godlpack.empty((2**40, 2**10)), MemoryError),
        (lambda: tensor().__dlpack__(copy="no"), TypeError),
        (lambda: godlpack.from_dlpack(tensor(), device="gpu"), ValueError),
        (lambda: godlpack.arange(300, dtype="int8"), OverflowError),
    ]
    for bad, error in failed:
        with pytest.raises(error):
            bad()
    gc.collect()
    assert godlpack._core._live_storages() == before


# ---- godlpack.ops ----

ops: Any = godlpack.ops  # typed Any: these calls break its signatures on purpose

OPS_CALLS: dict[str, tuple[Call, type, str]] = {
    "sum()": (lambda: ops.sum(), TypeError, "sum\\(\\) missing required argument 'x'"),
    "sum(x, y)": (lambda: ops.sum(tensor(), tensor()), TypeError,
                  "takes at most 1 positional argument \\(2 given\\)"),
    "sum(3)": (lambda: ops.sum(3), TypeError,
               "sum\\(\\): argument 'x' must be a tensor \\(an object with __dlpack__\\), not int"),
    "sum(None)": (lambda: ops.sum(None), TypeError, "not NoneType"),
    "sum(x=)": (lambda: ops.sum(x=tensor()), TypeError, "sum\\(\\) got an unexpected keyword argument 'x'"),
    "scale_(x)": (lambda: ops.scale_(tensor()), TypeError, "scale_\\(\\) missing required argument 'a'"),
    "scale_(x, 'a')": (lambda: ops.scale_(tensor(), "a"), TypeError, "^scale_\\(\\): argument 'a' must be a number, not str$"),
    "scale_(x, None)": (lambda: ops.scale_(tensor(), None), TypeError, "must be a number, not NoneType$"),
    "scale_(x, 2**70)": (lambda: ops.scale_(tensor(), 2**70), OverflowError, "does not fit in int64"),
    "scale_(int tensor, 1.5)": (lambda: ops.scale_(tensor(), 1.5), TypeError, "needs an int factor"),
    "scale_(a=)": (lambda: ops.scale_(tensor(), a=2), TypeError,
                   "scale_\\(\\) got an unexpected keyword argument 'a'"),
    "copy_(x)": (lambda: ops.copy_(tensor()), TypeError, "copy_\\(\\) missing required argument 'src'"),
    "copy_(x, 3)": (lambda: ops.copy_(tensor(), 3), TypeError, "argument 'src' must be a tensor .*, not int"),
    "copy_(3, x)": (lambda: ops.copy_(3, tensor()), TypeError, "argument 'dst' must be a tensor .*, not int"),
    "copy_ shapes differ": (lambda: ops.copy_(godlpack.zeros(3, dtype="int64"), tensor()), ValueError,
                            "cannot copy shape \\[4\\] into shape \\[3\\]"),
}


@pytest.mark.parametrize("name", sorted(OPS_CALLS))
def test_ops_bad_arguments(name: str) -> None:
    call, error, words = OPS_CALLS[name]
    with pytest.raises(error, match=words):
        call()


# ---- values shown in messages ----

BIG = 10**5000  # beyond the 4300 digits int.__repr__ writes: repr(BIG) raises ValueError


class LoudRepr:
    """An object whose __repr__ raises: a message about it must not raise that instead."""

    def __repr__(self) -> str:
        raise KeyError("repr")


@pytest.mark.parametrize("call, error, words", [
    (lambda: godlpack.Device((BIG, 0)), ValueError, "out-of-range device (an int of 16610 bits, 0)"),
    (lambda: godlpack.Device((1, -BIG)), ValueError, "out-of-range device (1, a negative int of 16610 bits)"),
    (lambda: godlpack.Device("cuda", BIG), ValueError, "device index must be an int32, got an int of 16610 bits"),
    (lambda: godlpack.from_dlpack(np.ones(2), device=(BIG, 0)), ValueError, "an int of 16610 bits"),
    (lambda: godlpack.zeros(2).__dlpack__(stream=BIG), ValueError, "got an int of 16610 bits"),
    (lambda: godlpack.zeros(2).__dlpack__(max_version=(1, -BIG)), TypeError, "(1, a negative int of 16610 bits)"),
    (lambda: godlpack.zeros(2).__dlpack__(dl_device=(2, BIG)), BufferError, "to dl_device (2, an int of 16610 bits)"),
    (lambda: godlpack.Device((LoudRepr(), 0)), TypeError, "tuple of ints, got (<LoudRepr object>, 0)"),
    (lambda: godlpack.zeros(2).__dlpack__(max_version=LoudRepr()), TypeError, "got <LoudRepr object>"),
], ids=["device type", "device id", "device index", "from_dlpack device", "stream", "max_version", "dl_device",
        "device repr raising", "max_version repr raising"])
def test_messages_show_values_in_bounded_words(call: Callable[[], Any], error: type[Exception], words: str) -> None:
    # %R of such a value raised ValueError (int digits) or the repr's own KeyError in place of the message.
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)


def test_every_device_str_reads_back() -> None:
    for pair in [(1, 0), (2, 3), (50, 0), (-7, 2), (0, 0), (2**31 - 1, 2**31 - 1)]:
        d = godlpack.Device(pair)
        assert godlpack.Device(str(d)) == d == pair, pair
    with pytest.raises(ValueError, match="names no device"):
        godlpack.Device("device_type(2147483648):0")  # beyond int32
    with pytest.raises(ValueError, match="names no device"):
        godlpack.Device("device_type(01):0")
