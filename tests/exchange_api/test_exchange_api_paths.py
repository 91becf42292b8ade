"""The result never depends on the path: PyTorch tensors imported through torch's C exchange API and
through its __dlpack__ give the same Tensor, or the same exception (docs/protocol.md#the-c-exchange-api).

PyTorch's table exports what its __dlpack__ refuses (a conjugate-bit view, read unconjugated; a tensor that
requires grad) and fails where __dlpack__ raises BufferError (sparse, quantized, meta). from_dlpack answers
those as __dlpack__ does. A tensor of a subclass goes through its __dlpack__ (the subclass may override it).
"""

from __future__ import annotations

import gc
from typing import Any, Callable, Iterator

import pytest
import torch

import godlpack


class OnlyDLPack:
    """A producer with __dlpack__ alone: from_dlpack must take the __dlpack__ path for it."""

    def __init__(self, t: torch.Tensor) -> None:
        self.t = t

    def __dlpack__(self, **kw: Any) -> Any:
        return self.t.__dlpack__(**kw)

    def __dlpack_device__(self) -> Any:
        return self.t.__dlpack_device__()


def outcome(x: Any) -> tuple[Any, ...]:
    try:
        g = godlpack.from_dlpack(x)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome
        return ("raise", type(e).__name__)
    readable = g.dtype.bits * g.dtype.lanes >= 8 or g.size == 0
    values = g.tolist() if readable else None
    return ("tensor", str(g.dtype), g.shape, g.strides, g.device, g.readonly, g.is_copied, g.data_ptr(), repr(values))


class Refusing(torch.Tensor):
    def __dlpack__(self, *args: Any, **kw: Any) -> Any:
        raise BufferError("this subclass exports nothing")


DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32,
          torch.int64, torch.uint8, torch.uint16, torch.uint32, torch.uint64, torch.bool, torch.complex64,
          torch.complex128, torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fnuz, torch.float8_e5m2fnuz,
          torch.float8_e8m0fnu]


def kinds() -> Iterator[tuple[str, Callable[[], torch.Tensor]]]:
    for dt in DTYPES:
        yield f"{dt}".removeprefix("torch."), lambda dt=dt: torch.arange(6).reshape(2, 3).to(dt)
    yield "complex32", lambda: torch.tensor([1 + 2j]).to(torch.complex32)
    yield "float4_e2m1fn_x2", lambda: torch.arange(4, dtype=torch.uint8).view(torch.float4_e2m1fn_x2)
    yield "transposed", lambda: torch.arange(6.0).reshape(2, 3).T
    yield "strided", lambda: torch.arange(12.0).reshape(3, 4)[:, ::2]
    yield "storage-offset", lambda: torch.arange(6.0)[2:]
    yield "expand", lambda: torch.arange(3.0).expand(2, 3)
    yield "0-d", lambda: torch.tensor(2.5)
    yield "empty", lambda: torch.zeros(2, 0)
    yield "detached", lambda: torch.ones(3, requires_grad=True).detach()
    yield "requires-grad", lambda: torch.ones(3, requires_grad=True)
    yield "non-leaf", lambda: torch.ones(3, requires_grad=True) * 2
    yield "parameter", lambda: torch.nn.Parameter(torch.ones(2))
    yield "parameter-no-grad", lambda: torch.nn.Parameter(torch.ones(2), requires_grad=False)
    yield "conjugate-bit", lambda: torch.tensor([1 + 2j, 3 - 4j]).conj()
    yield "resolved-conjugate", lambda: torch.tensor([1 + 2j]).conj().resolve_conj()
    yield "neg-bit", lambda: torch.tensor([1 + 2j]).conj().imag
    yield "sparse", lambda: torch.eye(3).to_sparse()
    yield "sparse-csr", lambda: torch.eye(3).to_sparse_csr()
    yield "quantized", lambda: torch.quantize_per_tensor(torch.ones(2), 0.1, 0, torch.qint8)
    yield "meta", lambda: torch.empty(2, device="meta")
    yield "subclass-refusing", lambda: torch.arange(3.0).as_subclass(Refusing)
    yield "inference-mode", lambda: _inference()


def _inference() -> torch.Tensor:
    with torch.inference_mode():
        return torch.arange(3.0)


KINDS = dict(kinds())


@pytest.fixture
def dlpack_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the calls of torch.Tensor.__dlpack__, so a test can tell which path from_dlpack took."""
    calls = [0]
    original = torch.Tensor.__dlpack__

    def counted(self: torch.Tensor, *args: Any, **kw: Any) -> Any:
        calls[0] += 1
        return original(self, *args, **kw)

    monkeypatch.setattr(torch.Tensor, "__dlpack__", counted)
    return calls


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", KINDS)
def test_same_answer_through_both_paths(name: str) -> None:
    x = KINDS[name]()
    # OnlyDLPack's type has no table: from_dlpack can only ask its __dlpack__.
    assert outcome(x) == outcome(OnlyDLPack(x))
    del x
    gc.collect()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ["float32", "bool", "float8_e4m3fn", "float4_e2m1fn_x2", "transposed", "expand",
                                  "0-d", "empty", "detached"])
def test_plain_tensors_take_the_exchange_api(name: str, dlpack_calls: list[int]) -> None:
    x = KINDS[name]()
    if type(x) is not torch.Tensor:
        pytest.skip("a subclass goes through its __dlpack__")
    godlpack.from_dlpack(x)
    assert dlpack_calls[0] == 0, "torch's __dlpack__ was called: the table was not used"


@pytest.mark.parametrize("name", ["requires-grad", "conjugate-bit", "sparse", "quantized", "parameter",
                                  "subclass-refusing"])
def test_what_torch_refuses_is_buffer_error(name: str) -> None:
    with pytest.raises(BufferError):
        godlpack.from_dlpack(KINDS[name]())


def test_meta_tensors_get_torchs_own_error() -> None:
    # PyTorch's __dlpack_device__ refuses a meta tensor before any export: its ValueError reaches the caller.
    with pytest.raises(ValueError, match="meta"):
        godlpack.from_dlpack(KINDS["meta"]())


def test_neg_bit_views_come_out_with_the_wrong_sign_on_both_paths() -> None:
    # A PyTorch limitation (docs/protocol.md): its __dlpack__ and its table ignore the neg bit.
    x = torch.tensor([1 + 2j]).conj().imag  # -2.0
    assert x.tolist() == [-2.0]
    assert godlpack.from_dlpack(x).tolist() == [2.0]
    assert godlpack.from_dlpack(OnlyDLPack(x)).tolist() == [2.0]


def test_ops_and_capsule_import_take_the_exchange_api(dlpack_calls: list[int]) -> None:
    x = torch.ones(4)
    assert godlpack.ops.sum(x) == 4.0
    godlpack.ops.scale_(x, 2.0)
    assert x.tolist() == [2.0] * 4
    assert dlpack_calls[0] == 0
    # A read-only parameter reads a tensor that requires grad (docs/protocol.md, "One import"); one written is refused.
    assert godlpack.ops.sum(torch.ones(2, requires_grad=True)) == 2.0 and dlpack_calls[0] == 0
    with pytest.raises(BufferError, match="require gradient"):
        godlpack.ops.scale_(torch.ones(2, requires_grad=True), 2.0)
    with pytest.raises(BufferError, match="conjugate"):
        godlpack.ops.sum(torch.ones(2, dtype=torch.complex64).conj())
