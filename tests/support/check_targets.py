"""Targets of godlpack.check's command line for the tests (named as check_targets:FUNCTION): libraries that behave
in one awkward way each, built on NumPy's target (load_target("numpy")), which breaks no must rule."""

from __future__ import annotations

import dataclasses
import os
import signal
import time
from typing import Any

from godlpack.check import Target, load_target


def surrogate_message() -> Target:
    """NumPy, whose legacy exports are refused with a BufferError naming a path that is not UTF-8 (os.fsdecode of
    its bytes holds a lone surrogate), as a library reporting a file it could not map would."""
    numpy = load_target("numpy")
    export = numpy.export
    path = os.fsdecode(b"/tmp/tensor-\xff.bin")

    def refusing_legacy(x: Any, **kwargs: Any) -> Any:
        if kwargs.get("max_version") is None:
            raise BufferError(f"cannot map {path}")
        return export(x, **kwargs)

    return dataclasses.replace(numpy, name="surrogate", export=refusing_legacy)


def forking_helper() -> Target:
    """NumPy, whose import starts a helper process by fork (a worker pool, a server), which inherits every open file
    of the process, the checker's result pipe included, and outlives the run. Its pid is written to the file
    $CHECK_HELPER_PID names."""
    pid = os.fork()
    if pid == 0:
        try:
            time.sleep(120)
        finally:
            os._exit(0)
    with open(os.environ["CHECK_HELPER_PID"], "w") as f:
        f.write(str(pid))
    return dataclasses.replace(load_target("numpy"), name="forking")


def hanging() -> Target:
    """NumPy, whose every export never returns."""

    def hang(x: Any, **kwargs: Any) -> Any:
        while True:
            time.sleep(60)

    return dataclasses.replace(load_target("numpy"), name="hanging", export=hang)


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


def not_loading() -> Target:
    raise ImportError("this library is not installed here")


def aborting_kernel() -> Target:
    """godlpack, whose kernels abort the process on data that is not 64-byte aligned, as TensorFlow's do: it
    imports such data without a word and dies in its first kernel on it."""
    godlpack = load_target("godlpack")
    compute = godlpack.compute
    assert compute is not None

    def aligned_only(x: Any) -> Any:
        if x.data_ptr() % 64:
            os.abort()
        return compute(x)

    return dataclasses.replace(godlpack, name="aborting", compute=aligned_only)


def unanswering() -> Target:
    """NumPy, whose export cannot answer one check: the environment's CHECK_TARGET_FAULT says how ("hang", "stop":
    SIGSTOP to its own process, "exit": os._exit(0)) and CHECK_TARGET_AT in which ("first", the legacy export of
    producer.max_version.absent, or "later", max_version=(0, 8) of producer.max_version.0.x: both should rules)."""
    numpy = load_target("numpy")
    export = numpy.export
    fault, at = os.environ["CHECK_TARGET_FAULT"], os.environ["CHECK_TARGET_AT"]

    def unanswered(x: Any, **kwargs: Any) -> Any:
        if kwargs.get("max_version", "absent") == {"first": "absent", "later": (0, 8)}[at]:
            if fault == "hang":
                while True:
                    time.sleep(60)
            elif fault == "stop":
                os.kill(os.getpid(), signal.SIGSTOP)
            elif fault == "exit":
                os._exit(0)
        return export(x, **kwargs)

    return dataclasses.replace(numpy, name="unanswering", export=unanswered)


def closing_then_hanging() -> Target:
    """NumPy, whose legacy export closes every file descriptor above stderr (the worker's result pipe among them,
    as a library that daemonizes may) and then never returns."""
    numpy = load_target("numpy")
    export = numpy.export

    def close_and_hang(x: Any, **kwargs: Any) -> Any:
        if "max_version" not in kwargs:
            os.closerange(3, 4096)
            while True:
                time.sleep(60)
        return export(x, **kwargs)

    return dataclasses.replace(numpy, name="closing", export=close_and_hang)
