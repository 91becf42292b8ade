"""Targets of godlpack.check's command line for the tests (named as check_targets:FUNCTION): libraries that behave
in one awkward way each, built on NumPy's target (load_target("numpy")), which breaks no must rule."""

from __future__ import annotations

import dataclasses
from typing import Any

from godlpack.check import Target, load_target


def should_only() -> Target:
    """NumPy, whose consumer refuses a CUDA tensor with RuntimeError (the Python specification recommends
    BufferError: a should rule) and breaks nothing else."""
    numpy = load_target("numpy")
    from_dlpack = numpy.from_dlpack
    assert from_dlpack is not None

    def refusing_cuda(x: Any, **kwargs: Any) -> Any:
        if hasattr(x, "__dlpack_device__") and tuple(x.__dlpack_device__())[0] != 1:
            raise RuntimeError("CPU only")
        return from_dlpack(x, **kwargs)

    return dataclasses.replace(numpy, name="should-only", from_dlpack=refusing_cuda)
