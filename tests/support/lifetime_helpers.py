"""The C side of the lifetime tests: helpers/lifetime.c beside this file, compiled with the system C compiler on
first use.

It models C code that holds DLPack tensors: a producer whose deleters count their calls without Python,
a thread that Python and Go never saw calling a deleter, and a holder that outlives the interpreter.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Optional

import child_env as child_env_module
from dlpack_ctypes import _api

SOURCE = Path(__file__).parent / "helpers" / "lifetime.c"
_lib: Optional[ctypes.CDLL] = None
_path: Optional[Path] = None
ENV_LIB = "GODLPACK_LIFETIME_LIB"  # a child interpreter loads the parent's build instead of compiling again


def build(directory: Path) -> Path:
    """Compile the helper library into directory and return its path."""
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise RuntimeError("the lifetime tests need a C compiler (cc or gcc, or $CC) to build their helper")
    out = directory / "liblifetime.so"
    subprocess.run([cc, "-shared", "-fPIC", "-O1", "-Wall", "-o", str(out), str(SOURCE), "-lpthread"], check=True)
    return out


def lib() -> ctypes.CDLL:
    """The helper library, built once per process into a temporary directory."""
    global _lib, _path
    if _lib is None:
        given = os.environ.get(ENV_LIB)
        if given:
            path = Path(given)
        else:
            directory = tempfile.mkdtemp(prefix="godlpack-lifetime-")
            atexit.register(shutil.rmtree, directory, True)
            path = build(Path(directory))
        loaded = ctypes.CDLL(str(path))
        loaded.lt_make.restype = ctypes.c_void_p
        loaded.lt_made.restype = ctypes.c_int64
        loaded.lt_deleted.restype = ctypes.c_int64
        loaded.lt_last_deleter_thread.restype = ctypes.c_uint64
        loaded.lt_delete_on_thread.restype = ctypes.c_uint64
        loaded.lt_delete_on_thread.argtypes = [ctypes.c_void_p, ctypes.c_int]
        loaded.lt_keep_until_exit.restype = ctypes.c_int
        loaded.lt_keep_until_exit.argtypes = [ctypes.c_void_p, ctypes.c_int]
        _lib, _path = loaded, path
    return _lib


# A capsule keeps a pointer to its name, not a copy: the new names must live as long as the process.
USED = {b"dltensor": b"used_dltensor", b"dltensor_versioned": b"used_dltensor_versioned"}


def take(capsule: Any) -> tuple[int, bool]:
    """Consume a DLPack capsule as a C consumer would: its pointer, renamed used_... so only we delete it."""
    name = _api.PyCapsule_GetName(capsule)
    if name not in USED:
        raise ValueError(f"not an unconsumed DLPack capsule: {name!r}")
    pointer = _api.PyCapsule_GetPointer(capsule, name)
    if _api.PyCapsule_SetName(capsule, USED[name]) != 0:
        raise RuntimeError("PyCapsule_SetName failed")
    return pointer, name == b"dltensor_versioned"


def c_capsule() -> Any:
    """A capsule around a fresh tensor of the C producer (4 float32 0, 1, 2, 3), whose deleter counts."""
    pointer = lib().lt_make()
    if not pointer:
        raise MemoryError("lt_make")
    return _api.PyCapsule_New(pointer, b"dltensor_versioned", None)


def delete_on_thread(capsule: Any) -> int:
    """Take capsule's tensor and call its deleter on a fresh pthread; that thread's id."""
    pointer, versioned = take(capsule)
    thread = lib().lt_delete_on_thread(pointer, int(versioned))
    if thread == 0:
        raise RuntimeError("pthread_create failed")
    return int(thread)


def child_env(with_lib: bool = True) -> dict[str, str]:
    """The environment for a child interpreter ([child_env.child_env]), with this helper build unless with_lib is
    False."""
    env = child_env_module.child_env()
    if with_lib:
        lib()
        env[ENV_LIB] = str(_path)
    return env


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run code in a fresh interpreter that imports this godlpack, killed after timeout seconds."""
    return subprocess.run(
        [sys.executable, "-c", code], env=child_env(), capture_output=True, text=True, timeout=timeout
    )


def run_to_exit(code: str) -> str:
    """Run code in a fresh interpreter ([run_python]): it must exit 0 and say nothing on stderr; its stdout."""
    result = run_python(code)
    assert result.returncode == 0, f"exit status {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert result.stderr == "", result.stderr
    return result.stdout
