"""What NumPy and PyTorch users expect: defaults, dtype and device objects, len, bool, str and repr.

docs/protocol.md#the-python-surface-as-numpy-and-pytorch-users-write-it and #dtypes-dtype-objects state these promises; each is checked here
against NumPy or PyTorch themselves where they have the same thing.
"""

from __future__ import annotations

import ast
import ctypes
import enum
import sys
from typing import Any

import numpy as np
import pytest
import torch

import godlpack
from dlpack_ctypes import HandMade
from godlpack import DType

# ---- defaults ----
# docs/protocol.md#dtypes-dtype-objects


@pytest.mark.parametrize("make", ["empty", "zeros"])
@pytest.mark.parametrize("shape", [3, (2, 3), ()])
def test_empty_and_zeros_default_to_numpys_dtype(make: str, shape: Any) -> None:
    t = getattr(godlpack, make)(shape)
    assert t.dtype == getattr(np, make)(shape).dtype == np.float64
    assert getattr(godlpack, make)(shape, dtype=None).dtype == "float64"


@pytest.mark.parametrize(
    "value", [3, -1, 2**63, True, False, 1.5, 1j, 2 + 0j, np.float32(1.5), np.int8(3), np.bool_(True),
              np.complex64(1j), np.float16(2), np.uint16(7), np.array(4, dtype=np.int16)],
    ids=repr,
)
def test_full_picks_numpys_dtype_for_the_value(value: Any) -> None:
    want = np.full(2, value)
    t = godlpack.full(2, value)
    assert t.dtype == want.dtype and t.tolist() == want.tolist()


# ---- dtypes as users spell them ----

NUMPY_SPELLINGS = ["?", "b", "B", "h", "H", "i", "I", "l", "L", "q", "Q", "p", "P", "e", "f", "d", "F", "D", "b1",
                   "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "bool", "bool_",
                   "byte", "ubyte", "short", "ushort", "intc", "uintc", "int", "int_", "uint", "long", "ulong",
                   "longlong", "ulonglong", "intp", "uintp", "half", "single", "double", "float", "csingle",
                   "cdouble", "complex"]


@pytest.mark.parametrize("spelling", NUMPY_SPELLINGS + ["<" + s for s in NUMPY_SPELLINGS[:32]]
                         + ["=f8", "|b1", "|u1", ">u1", ">b1", "|f4"])
def test_numpy_type_strings_name_numpys_dtype(spelling: str) -> None:
    want = np.dtype(spelling)
    assert DType(spelling) == want and DType(spelling).name == want.name
    assert godlpack.zeros(2, dtype=spelling).dtype == want


@pytest.mark.parametrize("spelling", [">f4", ">i8", "<float", "float_", "f3", "c32", "O", "V2", "U4", "g", "G"])
def test_what_numpy_refuses_or_dlpack_lacks_is_type_error(spelling: str) -> None:
    with pytest.raises(TypeError, match="not understood"):
        DType(spelling)


NUMPY_DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
                np.float16, np.float32, np.float64, np.complex64, np.complex128, np.intp, np.longlong]


@pytest.mark.parametrize("scalar_type", NUMPY_DTYPES, ids=lambda t: t.__name__)
def test_numpy_dtypes_and_scalar_types(scalar_type: Any) -> None:
    for spelled in (scalar_type, np.dtype(scalar_type)):
        t = godlpack.zeros(3, dtype=spelled)
        assert t.dtype == np.dtype(scalar_type) and t.dtype == scalar_type
        assert np.from_dlpack(t).dtype == np.dtype(scalar_type)
        assert godlpack.full(2, 1, dtype=spelled).dtype == scalar_type
        assert godlpack.arange(2, dtype=spelled).dtype == scalar_type
        assert DType(spelled) == t.dtype


TORCH_DTYPES = [torch.bool, torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16,
                torch.uint32, torch.uint64, torch.float16, torch.bfloat16, torch.float32, torch.float64,
                torch.complex32, torch.complex64, torch.complex128, torch.float8_e4m3fn, torch.float8_e5m2,
                torch.float8_e4m3fnuz, torch.float8_e5m2fnuz, torch.float8_e8m0fnu, torch.float4_e2m1fn_x2]


@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=str)
def test_torch_dtypes(dtype: torch.dtype) -> None:
    t = godlpack.zeros(2, dtype=dtype)
    assert t.dtype == dtype and dtype == t.dtype and DType(dtype) == t.dtype
    # The same DLPack type as PyTorch exports for that dtype.
    assert torch.from_dlpack(t).dtype == dtype


def test_python_types_as_numpy_reads_them() -> None:
    for py in (bool, int, float, complex):
        assert godlpack.zeros(1, dtype=py).dtype == np.dtype(py)
        assert DType(py) == py


class Typed:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    def __dlpack_data_type__(self) -> Any:
        if isinstance(self.answer, BaseException):
            raise self.answer
        return self.answer


@pytest.mark.parametrize("answer, name", [((2, 32, 1), "float32"), ((4, 16, 1), "bfloat16"),
                                          ((2, 32, 4), "float32x4"), ((18, 32, 1), "bcomplex32")])
def test_any_object_with_dlpack_data_type(answer: tuple[int, int, int], name: str) -> None:
    assert godlpack.zeros(2, dtype=Typed(answer)).dtype == name
    assert DType(Typed(answer)) == name and DType(name) == Typed(answer)
    assert DType(name).__dlpack_data_type__() == answer


@pytest.mark.parametrize("answer", [(2, 24, 1), (99, 8, 1), (2, 32), [2, 32, 1], (2.0, 32, 1), (2, 32, -1),
                                    (2, 32, 2**20), (True, 8, 1), None], ids=repr)
def test_a_dlpack_data_type_we_cannot_use_is_type_error(answer: Any) -> None:
    with pytest.raises(TypeError, match="__dlpack_data_type__"):
        godlpack.zeros(2, dtype=Typed(answer))
    assert DType("float32") != Typed(answer)  # no dtype: not equal, no exception


def test_dlpack_data_type_raising_propagates() -> None:
    with pytest.raises(KeyError):
        godlpack.zeros(2, dtype=Typed(KeyError("no")))
    with pytest.raises(KeyError):
        DType("float32") == Typed(KeyError("no"))  # noqa: B015 - the comparison raises


def test_dtype_equality_and_hash() -> None:
    f32 = DType("float32")
    assert f32 == np.float32 == np.dtype("float32") and f32 == torch.float32 and f32 == "float32"
    assert np.dtype("float32") == f32 and torch.float32 == f32  # the reflected comparisons agree
    assert f32 != np.float64 and f32 != torch.float64 and f32 != "float64" and f32 != 5 and f32 != None  # noqa: E711
    # Hashed as its name, as before: equal to its name as a key; NumPy's and PyTorch's dtypes hash otherwise
    # (as np.dtype("float32") == "float32" while their hashes differ), so a dict of DTypes is keyed by DType or name.
    assert hash(f32) == hash("float32") and {f32: 1}["float32"] == 1


# ---- devices ----
# docs/protocol.md#consumer-device


def test_device_is_its_tuple_with_names() -> None:
    d = godlpack.zeros(2).device
    assert isinstance(d, godlpack.Device) and isinstance(d, tuple)
    assert d == (1, 0) and hash(d) == hash((1, 0)) and {(1, 0): "x"}[d] == "x"
    assert d.type == "cpu" and d.index == 0 and d.__dlpack_device__() == (1, 0)
    assert type(d.__dlpack_device__()) is tuple
    assert str(d) == "cpu:0" and repr(d) == "godlpack.Device('cpu:0')"
    kind, ordinal = d
    assert (kind, ordinal) == (1, 0)


@pytest.mark.parametrize(
    "spelled, pair, name",
    [("cpu", (1, 0), "cpu:0"), ("cpu:0", (1, 0), "cpu:0"), ("cuda:1", (2, 1), "cuda:1"),
     ("rocm:0", (10, 0), "rocm:0"), ("cuda_host:0", (3, 0), "cuda_host:0"), ("tpu_host:2", (20, 2), "tpu_host:2"),
     ("ascend:7", (21, 7), "ascend:7"), ((2, 3), (2, 3), "cuda:3"), (torch.device("cpu"), (1, 0), "cpu:0"),
     (torch.device("cuda", 1), (2, 1), "cuda:1"), (torch.device("mps:0"), (8, 0), "metal:0"),
     (torch.device("xpu:2"), (14, 2), "oneapi:2"), ((99, 1), (99, 1), "device_type(99):1")],
    ids=repr,
)
def test_device_spellings(spelled: Any, pair: tuple[int, int], name: str) -> None:
    d = godlpack.Device(spelled)
    assert d == pair and str(d) == name and d.index == pair[1]
    # Hashed as its pair, so that it finds the pair's entry of a dict (3.14 gave tuples a cached hash, which a
    # tuple subclass's instance has only when built as CPython builds one).
    assert hash(d) == hash(pair) and {pair: "x"}[d] == "x" and {d: "y"}[pair] == "y"


def test_device_with_index() -> None:
    assert godlpack.Device("cuda", 1) == (2, 1) == godlpack.Device(2, 1)
    d = godlpack.Device("cuda:1")
    assert godlpack.Device(d) is d


@pytest.mark.parametrize("bad", ["cuda", "gpu:0", "cuda:x", "cuda:", "cpu:1", torch.device("cuda"),
                                 torch.device("meta"), (1, 1)], ids=repr)
def test_devices_that_name_none_are_value_error(bad: Any) -> None:
    with pytest.raises(ValueError):
        godlpack.Device(bad)
    with pytest.raises(ValueError):
        godlpack.from_dlpack(np.arange(3.0), device=bad)


@pytest.mark.parametrize("device", ["cpu", "cpu:0", (1, 0), torch.device("cpu"), torch.device("cpu", 0),
                                    godlpack.Device("cpu")], ids=repr)
def test_cpu_spellings_wherever_a_device_is_taken(device: Any) -> None:
    a = np.arange(3.0)
    assert godlpack.from_dlpack(a, device=device).device == (1, 0)
    assert godlpack.from_dlpack(torch.arange(3.0), device=device).device == (1, 0)
    t = godlpack.from_dlpack(a)
    assert godlpack.from_dlpack(t, device=device).data_ptr() == a.ctypes.data
    assert godlpack.from_dlpack(t.__dlpack__(dl_device=device)).data_ptr() == a.ctypes.data


def test_other_devices_in_dl_device_are_buffer_error() -> None:
    for device in ("cuda:0", torch.device("cuda", 0), godlpack.Device("rocm:1")):
        with pytest.raises(BufferError):
            godlpack.zeros(2).__dlpack__(dl_device=device)


# ---- len and bool ----
# docs/protocol.md#the-python-surface-as-numpy-and-pytorch-users-write-it


@pytest.mark.parametrize("shape", [(0,), (3,), (2, 5), (0, 4), (4, 0, 2)])
def test_len_as_numpy(shape: tuple[int, ...]) -> None:
    assert len(godlpack.zeros(shape)) == len(np.zeros(shape))


def test_len_of_a_0d_tensor_is_type_error() -> None:
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        len(godlpack.zeros(()))
    with pytest.raises(TypeError, match="len\\(\\) of unsized object"):
        len(np.zeros(()))


@pytest.mark.parametrize("value, dtype", [(0.0, "float64"), (2.0, "float32"), (0, "int8"), (3, "uint64"),
                                          (True, "bool"), (False, "bool"), (0j, "complex64"), (1j, "complex128"),
                                          (float("nan"), "float64"), (-0.0, "float16")])
@pytest.mark.parametrize("shape", [(), (1,), (1, 1)])
def test_truth_of_one_element_as_numpy(value: Any, dtype: str, shape: tuple[int, ...]) -> None:
    assert bool(godlpack.full(shape, value, dtype=dtype)) == bool(np.full(shape, value, dtype=dtype))


@pytest.mark.parametrize("dtype", ["bfloat16", "float8_e4m3fn", "complex32"])
def test_truth_of_dtypes_numpy_lacks(dtype: str) -> None:
    assert bool(godlpack.full(1, 1.5, dtype=dtype)) and not bool(godlpack.full(1, 0, dtype=dtype))


@pytest.mark.parametrize("shape", [(2,), (0,), (2, 3), (0, 1)])
def test_truth_of_many_or_no_elements_is_value_error_as_numpy(shape: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        bool(np.zeros(shape))
    with pytest.raises(ValueError, match="truth value of a tensor"):
        bool(godlpack.zeros(shape))


def test_truth_of_a_vector_element_is_value_error() -> None:
    with pytest.raises(ValueError, match="vector elements"):
        bool(godlpack.zeros(1, dtype="float32x4"))


# ---- str and repr ----

ARRAYS = [np.arange(6.0).reshape(2, 3), np.arange(10000), np.arange(2000.0).reshape(40, 50) / 3,
          np.array(3.5), np.array([True, False]), np.array([1 + 2j, -3j], dtype=np.complex64), np.zeros((2, 0)),
          np.arange(24, dtype=np.int8).reshape(2, 3, 4), np.array([1e-10, 1e10]), np.array([0.1, np.nan, -np.inf]),
          np.arange(12.0).reshape(3, 4)[:, ::2], np.arange(3000, dtype=np.uint16).reshape(10, 300)]


@pytest.mark.parametrize("a", ARRAYS, ids=lambda a: f"{a.dtype}{a.shape}")
def test_str_is_numpys(a: np.ndarray) -> None:
    assert str(godlpack.from_dlpack(a)) == str(a)
    assert str(godlpack.from_dlpack(torch.from_numpy(a.copy()))) == str(a)


def test_str_of_dtypes_numpy_lacks_prints_their_values() -> None:
    assert str(godlpack.full((2, 2), 1.5, dtype="bfloat16")) == str(np.full((2, 2), 1.5))
    assert str(godlpack.full(3, 1 - 2j, dtype="complex32")) == str(np.full(3, 1 - 2j))
    assert str(godlpack.full(2, 2.0, dtype="float32x2")) == str(np.full((2, 2), 2.0, dtype=np.float32))
    assert str(godlpack.zeros((2, 0), dtype="bfloat16")) == str(np.zeros((2, 0))) == "[]"


def test_str_without_numpy_lays_out_as_numpy(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [np.arange(6).reshape(2, 3), np.arange(10000), np.arange(3000).reshape(30, 100), np.arange(4),
             np.arange(24).reshape(2, 3, 4)]
    expected = [str(a) for a in cases]
    tensors = [godlpack.from_dlpack(a) for a in cases]
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    assert [str(t) for t in tensors] == expected
    assert str(godlpack.full(3, 1.5)) == "[1.5 1.5 1.5]"


def test_repr_summarises_as_numpy() -> None:
    t = godlpack.arange(10000)
    assert repr(t) == "godlpack.Tensor([0, 1, 2, ..., 9997, 9998, 9999], shape=(10000,), dtype=int64, device='cpu:0')"
    r = repr(godlpack.zeros((40, 50), dtype="int8"))
    assert r.startswith("godlpack.Tensor([[0, 0, 0, ..., 0, 0, 0], [0, 0, 0, ..., 0, 0, 0], [0, 0, 0, ..., 0, 0, 0],"
                        " ..., [0, 0, 0, ..., 0, 0, 0],")
    assert r.count("...") == 7  # three rows at each end, each cut, and the rows cut
    # Up to NumPy's threshold of 1000 elements, every element.
    assert repr(godlpack.arange(1000)).count("...") == 0 and repr(godlpack.arange(1001)).count("...") == 1
    assert repr(godlpack.zeros(())) == "godlpack.Tensor(0.0, shape=(), dtype=float64, device='cpu:0')"


# ---- printing is bounded by what it prints ----

HUGE = 2**40


def broadcast(dtype: tuple[int, int, int], shape: tuple[int, ...]) -> Any:
    """A CPU tensor of shape whose elements are all one element in memory (strides 0): any size in 16 bytes, each
    byte 0x40 (3.0 as bfloat16, 3.0039215 as float32, 32.501960784313724 as float64)."""
    h = HandMade(shape=shape, strides=(0,) * len(shape), dtype=dtype, nbytes=16)
    ctypes.memset(h.data_address, 0x40, 16)
    return godlpack.from_dlpack(h.capsule())


@pytest.mark.parametrize("make", [
    lambda: godlpack.zeros((HUGE, 0)),
    lambda: godlpack.from_dlpack(np.empty((HUGE, 0))),
    lambda: godlpack.zeros((HUGE, 0), dtype="bfloat16"),
    lambda: godlpack.zeros((3, HUGE, 0, 5), dtype="float32x4"),
], ids=["float64", "numpy", "bfloat16", "float32x4"])
def test_empty_tensors_with_a_huge_dimension_print_at_once(make: Any) -> None:
    # One [] per row was written, without end; NumPy shows any empty array as [].
    t = make()
    assert repr(t).startswith("godlpack.Tensor([], shape=(") and str(t) == "[]"


def test_tolist_of_an_empty_tensor_is_nested_empty_lists() -> None:
    # As NumPy's: the lists exist, and when they cannot (2**40 of them), MemoryError at once, never a long wait.
    assert godlpack.zeros((3, 0, 2)).tolist() == [[], [], []]
    assert godlpack.zeros((0, HUGE)).tolist() == []
    with pytest.raises(MemoryError):
        godlpack.zeros((HUGE, 0)).tolist()


@pytest.mark.parametrize("dtype, value", [((4, 16, 1), 3.0), ((2, 64, 1), 32.501960784313724)],
                         ids=["bfloat16", "float64"])
def test_str_and_repr_of_a_huge_tensor_read_only_its_edges(dtype: tuple[int, int, int], value: float) -> None:
    # 2**40 elements, one in memory: str of a dtype NumPy lacks (bfloat16) made a list of every element first.
    t = broadcast(dtype, (HUGE,))
    assert str(t) == str(np.broadcast_to(np.float64(value), (HUGE,)))
    assert repr(t).startswith(f"godlpack.Tensor([{value!r}, {value!r}, {value!r}, ..., {value!r}, ")


def test_str_of_dtypes_numpy_lacks_follows_numpys_print_options() -> None:
    t = godlpack.from_dlpack(torch.arange(60, dtype=torch.bfloat16).reshape(3, 4, 5))
    values = np.arange(60, dtype=np.float64).reshape(3, 4, 5)
    for options in [dict(threshold=10, edgeitems=1), dict(threshold=10, edgeitems=2), dict(threshold=100)]:
        with np.printoptions(**options):  # type: ignore[arg-type]
            assert str(t) == str(values), options
    v = broadcast((2, 32, 4), (HUGE, 3))  # float32x4: its lanes print as one more dimension
    with np.printoptions(edgeitems=2):
        assert str(v) == str(np.broadcast_to(np.frombuffer(b"\x40" * 16, np.float32).astype(np.float64), (HUGE, 3, 4)))


def test_str_without_numpy_of_a_huge_tensor(monkeypatch: pytest.MonkeyPatch) -> None:
    t, expected = broadcast((0, 64, 1), (HUGE, 3)), str(np.broadcast_to(np.int64(0x4040404040404040), (HUGE, 3)))
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    assert str(t) == expected


def _elements(r: str) -> list[Any]:
    """The elements a 1-D tensor's repr shows, read back as Python values."""
    return list(ast.literal_eval(r[r.index("(") + 1:r.index("], shape=") + 1]))


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_repr_shows_narrow_floats_with_numpys_digits(dtype: Any) -> None:
    # Each element with the fewest digits that read back as it, NumPy's (Dragon4's) digits: float32's sqrt(3) is
    # 1.7320508, not the 1.7320507764816284 tolist returns, and a halfway float16 (0.015625) is 0.01563 as in NumPy.
    rng = np.random.default_rng(7)
    with np.errstate(over="ignore"):  # float16 tops out at 65504: those become inf, and are dropped
        values = (rng.standard_normal(500) * 10.0 ** rng.integers(-7, 7, 500)).astype(dtype)
    values = np.concatenate([values, np.array([0.015625, 1 / 3, -0.0, 1, 1e-7, 65504], dtype=dtype)])
    values = values[np.isfinite(values)]
    shown = _elements(repr(godlpack.from_dlpack(values)))
    assert [float(np.format_float_scientific(x, unique=True)) for x in values] == shown
    assert [dtype(x) for x in shown] == list(values)
    assert godlpack.from_dlpack(values).tolist() == values.tolist()  # tolist keeps every value exact


def test_repr_shows_narrow_complex_and_bfloat16_with_the_fewest_digits() -> None:
    c = (np.sqrt(np.arange(4, dtype=np.float32)) * (1 + 0.1j)).astype(np.complex64)
    assert _elements(repr(godlpack.from_dlpack(c))) == [0j, 1 + 0.1j, 1.4142135 + 0.14142136j, 1.7320508 + 0.17320508j]
    b = godlpack.from_dlpack(torch.tensor([1 / 3, 3.14159, -2.5], dtype=torch.bfloat16))
    assert _elements(repr(b)) == [0.334, 3.14, -2.5]
    assert b.tolist() == [0.333984375, 3.140625, -2.5]
    specials = np.array([np.inf, -np.inf, -0.0, 1e-45], np.float32)
    assert repr(godlpack.from_dlpack(specials)).startswith("godlpack.Tensor([inf, -inf, -0.0, 1e-45]")


class Kind(enum.IntEnum):
    kDLCPU = 1


def test_device_from_an_intenum_tuple() -> None:
    assert godlpack.Device((Kind.kDLCPU, 0)) == (1, 0)
    assert godlpack.zeros(1).__dlpack__(dl_device=(Kind.kDLCPU, 0)) is not None
