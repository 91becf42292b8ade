"""docs/python-api.md against the module: each heading's signature is the one inspect.signature reads, and every
public name of godlpack, godlpack.ops, Tensor, DType and Device is in the document.
"""

from __future__ import annotations

import inspect
import re
from typing import Any

import pytest

import godlpack
from godlpack import ops
from repository import ROOT

API = ROOT / "docs" / "python-api.md"
# A heading that names a callable with its signature: ### `godlpack.ops.sum(x, /)`.
HEADING = re.compile(r"^#{2,3} `(godlpack(?:\.\w+)+)\((.*)\)`$", re.M)


def resolve(dotted: str) -> Any:
    names = dotted.split(".")
    assert names[0] == "godlpack"
    obj: Any = godlpack
    for name in names[1:]:
        obj = getattr(obj, name)
    return obj


def documented() -> list[tuple[str, str]]:
    return HEADING.findall(API.read_text())


def shown(obj: Any) -> str:
    """The signature as the document writes it: a method's self (and the / after it) left out, and no annotations
    (a bound Go function's, godlpack.ops's, are in its docstring's tables)."""
    sig = inspect.signature(obj)
    sig = sig.replace(parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
                      return_annotation=sig.empty)
    text = str(sig)[1:-1]
    return re.sub(r"^self(, /)?(, )?", "", text)


def test_the_document_has_signatures() -> None:
    assert len(documented()) >= 12


@pytest.mark.parametrize("name, signature", documented(), ids=[n for n, _ in documented()])
def test_heading_signature_is_the_modules(name: str, signature: str) -> None:
    assert shown(resolve(name)) == signature, f"{name}: the module says ({shown(resolve(name))})"


def public_names() -> list[str]:
    names = [f"godlpack.{n}" for n in godlpack.__all__ if n not in ("ops", "__version__")]
    names += [f"godlpack.ops.{n}" for n in ops.__all__]
    for cls in (godlpack.Tensor, godlpack.DType, godlpack.Device):
        names += [f"godlpack.{cls.__name__}.{n}" for n in vars(cls) if not n.startswith("_")]
        names += [f"godlpack.{cls.__name__}.{n}" for n in ("__dlpack__", "__dlpack_device__") if n in vars(cls)]
    return sorted(set(names))


@pytest.mark.parametrize("name", public_names())
def test_public_name_is_documented(name: str) -> None:
    text = API.read_text()
    short = name.rsplit(".", 1)[-1]
    # A callable has its heading; a property or constant is named in backticks (its table row, its paragraph).
    if callable(resolve(name)) and not isinstance(resolve(name), type):
        assert name in {n for n, _ in documented()}, f"{name} has no heading in docs/python-api.md"
    else:
        assert f"`{short}`" in text or f"`{name}" in text, f"docs/python-api.md does not name {name}"
