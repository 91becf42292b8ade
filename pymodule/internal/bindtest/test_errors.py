"""Errors with less boilerplate: every kind of exception a Go error names, each the base of an exception class,
and an error about an argument that the binder names as it names its own refusals."""

from __future__ import annotations

import builtins
from pathlib import Path

import pytest

import bindtest as b

KINDS = ["TypeError", "ValueError", "BufferError", "MemoryError", "OverflowError", "RuntimeError", "IndexError",
         "KeyError", "NotImplementedError", "AttributeError", "StopIteration"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("by", ["name", "position"])
def test_an_argument_error_names_the_argument(kind: str, by: str) -> None:
    exception = getattr(builtins, kind)
    with pytest.raises(exception) as info:
        b.arg_error(kind, by, gamma=4)
    assert type(info.value) is exception
    # args[0]: str() of a KeyError is the repr of its message
    assert info.value.args == ("arg_error(): argument 'gamma' must be 5, not 4",)


@pytest.mark.parametrize("kind", ["Exception", *KINDS])
def test_each_kind_is_the_base_of_an_exception_class(kind: str) -> None:
    base = getattr(builtins, kind)
    fault = getattr(b, kind.removesuffix("Error") + "Fault")
    assert fault.__bases__ == (base,) and fault.__module__ == "bindtest"
    assert fault.__doc__ == f"A fault derived from {kind}."
    with pytest.raises(fault) as info:
        b.raise_fault(kind)
    assert type(info.value) is fault and info.value.args == (f"raise_fault(): a fault of {kind}",)
    for by in ["name", "position"]:  # the class's ArgError and ArgErrorAt
        with pytest.raises(fault) as info:
            b.raise_fault(kind, by)
        assert type(info.value) is fault and info.value.args == (f"raise_fault(): argument 'by' is a fault of {kind}",)


def test_the_stub_names_each_base() -> None:
    stub = Path(b.__file__).with_name("bindtest.pyi").read_text()
    for kind in ["Exception", *KINDS]:
        assert f"class {kind.removesuffix('Error')}Fault({kind}):" in stub, kind
