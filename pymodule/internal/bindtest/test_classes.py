"""Go types as Python classes, callbacks, enums, exception classes and constants: bindtest's Counter and friends.

Run in a process of its own with bindtest (tests/extensions/test_binder.py, or `make example-test`).
"""

from __future__ import annotations

import copy
import gc
import inspect
import os
import pickle
import subprocess
import sys
import threading
import weakref
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch

import bindtest as b
from forking import NO_EXIT, fork_during

Counter = b.Counter


def run(code: str) -> str:
    """The stdout of code in a fresh interpreter that imports only bindtest; fails on a non-zero exit."""
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


# ---- the class ----


def test_construct_and_read() -> None:
    c = Counter("a", 1.5)
    assert type(c) is Counter and repr(c) == 'Counter("a", total=1.5)' and str(c) == repr(c)
    assert c.total == 1.5 and c.name == "a" and Counter.UNIT == 1.0
    assert Counter("k", start=2).total == 2.0
    assert Counter.__module__ == "bindtest" and Counter.__qualname__ == "Counter"
    assert str(inspect.signature(Counter)) == "(name, start=0.0)" and Counter.__doc__ == "Sums what it is given."


def test_constructor_errors_name_the_class() -> None:
    with pytest.raises(TypeError, match=r"^Counter\(\) missing required argument 'name'"):
        Counter()
    with pytest.raises(TypeError, match=r"^Counter\(\): argument 'name' must be a str, not int"):
        Counter(3)
    with pytest.raises(b.CounterError, match=r"^Counter\(\): a counter needs a name$"):
        Counter("")


@pytest.mark.parametrize("make", [np.asarray, torch.from_numpy], ids=["numpy", "torch"])
def test_methods_over_tensors(make: Any) -> None:
    c = Counter("a")
    assert c.add(make(np.arange(4.0))) == 6.0 and c.add(make(np.ones((2, 2)))) == 10.0 and c.total == 10.0
    with pytest.raises(TypeError, match=r"^Counter\.add\(\): argument 'x' must be a float64 tensor, got a 1-D int64 one"):
        c.add(make(np.arange(3)))
    assert str(inspect.signature(c.add)) == "(x: 'tensor[float64]', /) -> 'float'"
    assert str(inspect.signature(Counter.add)) == "(self, x: 'tensor[float64]', /) -> 'float'"
    assert Counter.add.__qualname__ == "Counter.add" and Counter.add.__doc__ == "Add x's elements; the total."
    assert repr(Counter.add) == "<method 'add' of 'bindtest.Counter' objects>"
    assert Counter.add(c, np.ones(1)) == 11.0  # called through the class, self first


def test_a_method_of_another_class_is_a_type_error() -> None:
    # T.method(other): the instance argument is held to the class.
    with pytest.raises(TypeError, match=r"^Counter\.add\(\): argument 'self' must be a bindtest\.Counter, not object"):
        Counter.add(object(), np.ones(2))
    with pytest.raises(TypeError, match=r"argument 'self' must be a bindtest\.Counter, not Mode"):
        Counter.spin(b.Mode.EXACT, 1)


def test_properties() -> None:
    c = Counter("a")
    c.name = "bee"
    assert c.name == "bee"
    with pytest.raises(RuntimeError, match=r"^Counter\.name\(\): a counter needs a name$"):
        c.name = ""
    with pytest.raises(TypeError, match=r"^Counter\.name\(\): argument 'value' must be a str, not int"):
        c.name = 3
    with pytest.raises(AttributeError, match="not writable"):
        c.total = 3.0
    with pytest.raises(AttributeError, match="cannot be deleted"):
        del c.name
    assert isinstance(inspect.getattr_static(Counter, "total"), type(inspect.getattr_static(Counter, "name")))


FIELDS = "b i i8 i16 i32 i64 u u8 u16 u32 u64 f32 f64 c64 c128".split()


@pytest.mark.parametrize("x", [0, 1, -3, 300, 2**40 + 5])
def test_fields_read_the_go_value_in_place(x: int) -> None:
    # Each Field is read by C from the Go value, as Go converts: the integer's bits, f32 and f64 x/4, c64 x-1j.
    p = b.Probe(7)
    p.set(x)  # written by Go after the instance was made: C reads the value itself, not a copy
    want = {"b": x != 0, "f32": float(np.float32(x) / 4), "f64": x / 4, "c64": complex(np.float32(x), -1),
            "c128": complex(x, 0.5)}
    for name in FIELDS:
        if name not in want:
            signed, bits = name[0] == "i", int(name[1:] or 64)
            v = x % 2**bits
            want[name] = v - 2**bits if signed and v >= 2 ** (bits - 1) else v
        got = getattr(p, name)
        assert got == want[name] and type(got) is type(want[name]), (name, got, want[name])
    c = Counter("a")
    c.add(np.ones(2))
    c.add(np.ones(2))
    c.spin(5)
    assert (c.adds, c.spins) == (2, 5)


def test_a_field_is_a_read_only_property_with_its_type_in_the_stub() -> None:
    p = b.Probe(1)
    with pytest.raises(AttributeError, match="not writable"):
        p.f64 = 2.0
    with pytest.raises(AttributeError):
        del p.i
    assert type(p).f64.__doc__ == "A float64 field."
    stub = (Path(b.__file__).parent / "bindtest.pyi").read_text()  # written beside the module with it
    for line in ("    def f64(self) -> float:", "    def c64(self) -> complex:", "    def b(self) -> bool:",
                 "    def u64(self) -> int:", "    def adds(self) -> int:"):
        assert line in stub


def test_a_value_pinned_for_its_fields_is_let_go_with_its_instance() -> None:
    # The first field read pins the value (C keeps its address); the instance's death unpins it, and Go frees it.
    before = b.collect()
    for _ in range(100):
        c = Counter("x")
        c.add(np.ones(1))
        assert c.adds == 1 and c.adds == 1
    del c
    gc.collect()
    freed = b.collect()
    assert freed >= before + 90, (before, freed)


def test_fields_in_a_forked_child() -> None:
    # A value pinned before the fork reads on in the child; one never read needs Go to pin it: RuntimeError, no hang.
    out = run("import os, bindtest as b\n"
              "read, unread = b.Counter('a'), b.Counter('b')\n"
              "assert read.adds == 0\n"
              "pid = os.fork()\n"
              "if pid == 0:\n"
              "    try:\n"
              "        unread.adds\n"
              "    except RuntimeError as e:\n"
              "        os.write(1, ('child %d %s\\n' % (read.adds, 'forked' in str(e))).encode())\n"
              "    os._exit(0)\n"
              "_, status = os.waitpid(pid, 0)\n"
              "print('parent', os.waitstatus_to_exitcode(status))\n")
    assert out == "child 0 True\nparent 0\n"


def test_a_field_of_an_instance_another_thread_holds_is_refused() -> None:
    # spin releases the GIL and writes spins meanwhile: reading the field then is refused, as a getter's call is.
    c, refusals = Counter("a"), []
    t = threading.Thread(target=c.spin, args=(300_000_000,))
    t.start()
    while t.is_alive():
        try:
            c.spins
        except RuntimeError as e:
            refusals.append(str(e))
    t.join()
    assert refusals, "no read of the field came while spin held the Counter"
    assert refusals[0] == ("field 'spins': the bindtest.Counter is in use by Counter.spin() on another thread, which "
                           "released the GIL or runs Python code")
    assert c.spins == 300_000_000


def test_static_methods_and_attributes() -> None:
    c = Counter.named("x")
    assert type(c) is Counter and c.total == 0 and Counter.named.__qualname__ == "Counter.named"
    assert b.LIMIT == 1000 and isinstance(b.LIMIT, int) and isinstance(Counter.UNIT, float)


def test_one_pointer_one_object() -> None:
    c = Counter("a")
    assert c.self() is c and c.self().self() is c
    d = c.clone()
    assert d is not c and d.self() is d and d == c


def test_equality_and_hash_are_the_authors() -> None:
    c, d = Counter("a", 1), Counter("a", 1)
    assert c == d and not (c != d) and hash(c) == hash(d) and len({c, d}) == 1
    d.add(np.ones(1))
    assert c != d and c != "a" and (c == 3) is False


def test_instances_as_parameters() -> None:
    c = Counter("a", 2)
    assert b.counter_total(c) == 2.0 and b.maybe_counter(c) == "a" and b.maybe_counter() == "none"
    assert b.maybe_counter(None) == "none"
    with pytest.raises(TypeError, match=r"^counter_total\(\): argument 'c' must be a bindtest\.Counter, not int"):
        b.counter_total(3)
    with pytest.raises(TypeError, match=r"argument 'c' must be a bindtest\.Counter, not NoneType"):
        b.counter_total(None)


def test_the_class_is_final_and_made_only_by_its_constructor() -> None:
    with pytest.raises(TypeError, match="not an acceptable base type"):
        type("Sub", (Counter,), {})
    with pytest.raises(TypeError):  # "object.__new__(bindtest.Counter) is not safe"
        Counter.__new__(Counter)
    with pytest.raises(TypeError):
        Counter.extra = 1  # type: ignore[attr-defined]


def test_pickle_and_copy() -> None:
    c = Counter("a", 2.5)
    c.add(np.ones(2))
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        d = pickle.loads(pickle.dumps(c, protocol=protocol))
        assert type(d) is Counter and d is not c and d == c and repr(d) == repr(c)
    assert copy.copy(c) == c and copy.deepcopy(c) == c and copy.copy(c) is not c
    out = run(f"import pickle, bindtest\nc = pickle.loads({pickle.dumps(c)!r})\nprint(repr(c), c.total)")
    assert out == 'Counter("a", total=4.5) 4.5\n'


def test_weak_references_and_lifetime() -> None:
    # The Go value lives as long as its Python object, and is let go when it dies.
    before = b.collect()
    c = Counter("a")
    r = weakref.ref(c)
    assert r() is c
    del c
    gc.collect()
    assert r() is None
    for _ in range(100):
        Counter("x").add(np.ones(3))
    freed = b.collect()
    assert freed >= before + 90, (before, freed)  # the Go collector frees what no instance holds


def test_an_instance_outlives_its_module() -> None:
    # The module's other objects gone (sys.modules entry, names, the module itself): the class and its methods live
    # on in the instance, whose type holds its module.
    out = run("import gc, sys, numpy as np, bindtest\n"
              "c = bindtest.Counter('a')\n"
              "del sys.modules['bindtest'], bindtest\n"
              "gc.collect()\n"
              "print(c.add(np.ones(3)), c.name, repr(c), type(c).named('z').total)")
    assert out == '3.0 a Counter("a", total=3) 0.0\n'


# ---- one value, many threads ----


def test_a_call_without_the_gil_holds_its_instance() -> None:
    # spin releases the GIL and counts one at a time (read, then write): two at once on one Counter would lose
    # counts. A second call meanwhile is refused, and no count is ever lost.
    c = Counter("a")
    n, done, refused, errors = 200_000, [], [], []

    def work() -> None:
        for _ in range(5):
            try:
                c.spin(n)
                done.append(1)
            except RuntimeError as e:
                if "in use by Counter.spin() on another thread" not in str(e):
                    errors.append(e)
                refused.append(1)
            except BaseException as e:  # noqa: BLE001
                errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert len(done) + len(refused) == 40 and done
    assert c.spin(0) == n * len(done)  # exact: no two spins ran at once


def test_calls_holding_the_gil_on_one_instance_from_many_threads() -> None:
    c, errors = Counter("a"), []

    def work() -> None:
        try:
            for _ in range(500):
                c.add(np.ones(2))
                _ = c.total, c.name
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and c.total == 8 * 500 * 2


# ---- callbacks ----


def test_callbacks_convert_both_ways() -> None:
    assert b.apply(2.5, lambda v: v * 2 + 0.3) == 5.3
    assert b.apply(2.5, lambda v: v * 2 + 0.3, mode=b.Mode.FLOOR) == 5.0
    assert b.spin_with(lambda i: i * 2, 5) == 20  # from a function that released the GIL
    rows: list[Any] = []
    b.rows(np.arange(6.0).reshape(2, 3), lambda r: rows.append((type(r).__name__, r.tolist(), r.readonly)))
    assert rows == [("Tensor", [0.0, 1.0, 2.0], False), ("Tensor", [3.0, 4.0, 5.0], False)]  # copies of the rows
    with pytest.raises(TypeError, match=r"^apply\(\): argument 'f' must be a callable, not int"):
        b.apply(1.0, 3)


def test_a_callbacks_wrong_result_names_the_callback() -> None:
    with pytest.raises(TypeError, match=r"^apply\(\): callback 'f'\(\): argument 'result' must be a float, not str"):
        b.apply(1.0, lambda v: "x")


@pytest.mark.parametrize("call", [
    lambda f: b.apply(1.0, f),
    lambda f: b.spin_with(f, 3),
    lambda f: Counter("a").each(np.ones(3), f),
    lambda f: Counter("a").each_free(np.ones(3), f),
], ids=["function", "without the GIL", "method", "method without the GIL"])
def test_a_callbacks_exception_reaches_the_caller(call: Any) -> None:
    # The same exception, with its traceback into the callback, whatever Go did after.
    def f(v: float) -> float:
        raise KeyError("from the callback")

    with pytest.raises(KeyError, match="from the callback") as info:
        call(f)
    assert info.traceback[-1].name == "f"


def test_a_callback_reentering_its_instance() -> None:
    c = Counter("a")
    # Holding the GIL, a method's callback may call the instance's methods: one thread, one call at a time.
    c.each(np.ones(2), lambda v: c.add(np.ones(1)))
    # The first element: add makes the total 1 and returns it, which each adds (2); the second: add makes it 3,
    # which each adds (6).
    assert c.total == 6
    # Without the GIL too: the method holds its instance against other threads, but a callback on its own thread
    # runs while the method's Go code waits for it.
    c.each_free(np.ones(2), lambda v: c.add(np.ones(1)))
    assert c.total == 30  # add makes 7, which each adds (14); add makes 15, which each adds (30)


def test_a_callback_kept_after_its_call_returned() -> None:
    b.keep(lambda: 42)
    with pytest.raises(RuntimeError, match=r"^call_kept\(\): .*called after the call it came with returned"):
        b.call_kept()


@pytest.mark.parametrize("call, parent", [
    ("b.apply(2.0, f)", "parent 2.0 0"),  # the call holds the GIL
    ("b.spin_with(lambda n: int(f(n)) + 3, 1)", "parent 3 0"),  # the call released it
    ("b.apply(1.0, lambda v: b.apply(v, f) + 1)", "parent 2.0 0"),  # a call inside a callback
    # The call holds the GIL, and its Go code released it around the callback: the child takes it back.
    ("b.apply_released(2.0, f)", "parent 2.0 0"),
])
def test_a_callback_that_forks(call: str, parent: str) -> None:
    done = fork_during(call)
    assert done.returncode == 0 and sorted(done.stdout.splitlines()) == ["child forked", parent], done
    assert done.stderr == ""


@pytest.mark.parametrize("call", ["b.apply(2.0, slow)", "b.spin_with(lambda n: int(slow(n)) + 2, 1)"])
def test_a_slow_callback_that_forks(call: str) -> None:
    # The callable runs 60 ms before it forks, past the 10 ms after which Go's sysmon hands the call's processor
    # to another thread: the child, where that thread is gone, would wait for ever in exitsyscall to return
    # through Go (a hang seen in CI). It jumps back to the bound call's C frame instead and raises there.
    done = fork_during(call, setup="def slow(v):\n    time.sleep(0.06)\n    return f(v)")
    parent = "parent 2.0 0" if call.startswith("b.apply") else "parent 2 0"
    assert done.returncode == 0 and sorted(done.stdout.splitlines()) == ["child forked", parent], done
    assert done.stderr == ""


def test_a_callback_from_a_goroutine_that_forks() -> None:
    # The child has no Python caller to return to: it says why and exits with status 1.
    done = fork_during("b.wait_for_goroutine_free(lambda: f(None))")
    assert done.returncode == 0 and done.stdout == "parent None 1\n", done
    assert done.stderr == NO_EXIT


# ---- enums, exception classes ----


def test_enums() -> None:
    Mode = b.Mode
    assert issubclass(Mode, int) and [m.name for m in Mode] == ["EXACT", "FLOOR", "CEIL"] and Mode.__doc__
    assert Mode.__module__ == "bindtest" and pickle.loads(pickle.dumps(Mode.CEIL)) is Mode.CEIL
    r = b.next_mode(Mode.FLOOR)
    assert r is Mode.CEIL and b.next_mode(0) is Mode.FLOOR  # results are members; an int a member has is taken
    with pytest.raises(ValueError, match=r"^next_mode\(\): argument 'm' must be a Mode, got 5$"):
        b.next_mode(5)
    with pytest.raises(TypeError, match=r"^next_mode\(\): argument 'm' must be a Mode, not str"):
        b.next_mode("EXACT")
    assert str(inspect.signature(b.apply)) == ("(x: 'float', f: 'Callable[[float], float]', mode: 'Mode' = <Mode.EXACT: 0>)"
                                              " -> 'float'")


class TwoFaced:
    """Equal to 1 (and hashed as 1) for the enum's check, and 7 to __index__."""

    def __eq__(self, other: object) -> bool:
        return other == 1

    def __hash__(self) -> int:
        return 1

    def __index__(self) -> int:
        return 7


class OneIndex(int):
    """An int of 1 whose __index__ says 2."""

    def __index__(self) -> int:
        return 2


def test_an_enum_argument_is_the_value_that_was_checked() -> None:
    # Go gets the member the IntEnum found, never what __index__ says of the object it checked: Mode(7) would reach
    # Go otherwise (next_mode would return 8 % 3, FLOOR).
    assert b.next_mode(TwoFaced()) is b.Mode.CEIL
    assert b.next_mode(OneIndex(1)) is b.Mode.CEIL
    assert b.apply(2.5, lambda v: v, mode=TwoFaced()) == 2.0  # FLOOR, the member equal to the object


def test_exception_classes() -> None:
    assert issubclass(b.CounterError, ValueError) and b.CounterError.__module__ == "bindtest"
    assert b.CounterError.__doc__ == "A counter was misused."
    with pytest.raises(b.CounterError, match=r"^counter_error\(\): wrapped: CounterError$"):
        b.counter_error("x")  # an error that wraps the class selects it
    e = pytest.raises(b.CounterError, Counter, "").value
    assert pickle.loads(pickle.dumps(e)).args == e.args


@pytest.mark.parametrize("kind, exception", [("class", b.CounterError), ("value", ValueError), ("plain", RuntimeError)])
@pytest.mark.parametrize("message, shown", [
    (b"latin-1 \xe9t\xe9", "latin-1 \\xe9t\\xe9"),  # no UTF-8: each byte shown, never a UnicodeDecodeError
    (b"before\x00after", "before\x00after"),  # a NUL kept: the message is its bytes, not a C string
    (b"\xf0\x9f\x98", "\\xf0\\x9f\\x98"),  # a character cut short
    ("é".encode() * 400 + b"|end", "é" * 400 + "|end"),  # 800 bytes and more: never cut
    (b"x" * 100_000, "x" * 100_000),
])
def test_an_error_message_of_any_bytes_raises_its_own_exception(kind: str, exception: type, message: bytes,
                                                                  shown: str) -> None:
    with pytest.raises(exception) as info:
        b.fail_with(message, kind)
    assert type(info.value) is exception and str(info.value) == "fail_with(): " + shown


# ---- typed slices, and refusals that name the argument ----


def test_slice_of_a_c_contiguous_tensor() -> None:
    assert b.slice_sum(np.arange(5, dtype=np.float32)) == 10.0
    assert b.slice_sum(torch.ones((2, 3))) == 6.0 and b.slice_sum(np.zeros((0, 3), np.float32)) == 0.0
    with pytest.raises(TypeError, match=r"^slice_sum\(\): data type mismatch: the tensor holds float64, not float32$"):
        b.slice_sum(np.ones(3))
    with pytest.raises(ValueError, match=r"^slice_sum\(\): layout mismatch: shape \[2 3\] with strides \[1 2\] is not "
                                         r"C-contiguous$"):
        b.slice_sum(np.ones((3, 2), np.float32).T)
    # Declared C-contiguous float32, pymodule.Slice cannot fail: the binder converts what is not.
    assert b.declared_sum(np.ones((3, 2), np.float32).T) == 6.0 and b.declared_sum(np.arange(4)) == 6.0
    with pytest.raises(RuntimeError, match=r"^undeclared_slice\(\): internal error: pymodule\.Slice\[float32\]: "
                                           r"consumer: data type mismatch: the tensor holds int64, not float32$"):
        b.undeclared_slice(np.arange(4))


def test_slice_parameters_take_1d_tensors_converted_to_their_dtype() -> None:
    assert b.dot(np.arange(4.0), np.ones(4)) == 6.0
    assert b.dot(np.arange(4, dtype=np.int32), torch.ones(4, dtype=torch.float32)) == 6.0  # copies, as convert
    assert b.dot(np.arange(8.0)[::2], np.ones(4)) == 12.0  # strided: copied to C order
    assert b.dot(np.empty(0), torch.empty(0, dtype=torch.float64)) == 0.0
    with pytest.raises(ValueError, match=r"^dot\(\): vectors of 2 and 3 elements$"):
        b.dot(np.ones(2), np.ones(3))
    with pytest.raises(TypeError, match=r"^dot\(\): argument 'a' must be a 1-D float64 tensor \(any layout; bool, "
                                        r"integer and float dtypes converted to float64\), got a 2-D"):
        b.dot(np.ones((2, 2)), np.ones(4))
    with pytest.raises(TypeError, match=r"^dot\(\): argument 'b'"):
        b.dot(np.ones(2), [1.0, 2.0])
    x = np.arange(4, dtype=np.float32)
    t = torch.arange(4, dtype=torch.float32)
    b.halve_(x), b.halve_(t[::1])
    assert x.tolist() == t.tolist() == [0.0, 0.5, 1.0, 1.5]
    with pytest.raises(TypeError, match=r"^halve_\(\): argument 'x'"):
        b.halve_(np.ones(3))  # a writable []float32 is never a copy
    with pytest.raises(ValueError, match=r"^halve_\(\): argument 'x'"):
        b.halve_(np.ones(6, np.float32)[::2])
    with pytest.raises(BufferError, match=r"^halve_\(\): argument 'x': writes in place, and the tensor is read-only"):
        x.flags.writeable = False
        b.halve_(x)


def test_a_writable_torch_tensor_that_requires_grad_is_refused_naming_the_argument() -> None:
    with pytest.raises(BufferError, match=r"^fill\(\): argument 'x': Can't export tensors that require gradient") as e:
        b.fill(torch.ones(3, dtype=torch.float64, requires_grad=True))
    assert isinstance(e.value.__cause__, BufferError)  # torch's own, raised from


# ---- callbacks and instances across threads ----


def test_a_slice_parameter_of_a_callback_is_the_go_memory() -> None:
    def double(t: Any) -> None:
        a = np.from_dlpack(t)
        assert a.tolist() == [1.0, 2.0, 3.0]
        a *= 2

    assert b.slice_callback(double) == 2.0  # the callable wrote the Go slice


def test_a_callback_from_another_goroutine_of_a_call_that_holds_the_gil_is_refused_at_once() -> None:
    # It could run only once the call returned, and the call waits for it: refused, never a hang.
    with pytest.raises(RuntimeError, match=r"^wait_for_goroutine\(\): a callback of a call that holds the GIL was "
                                           r"called from another goroutine$"):
        b.wait_for_goroutine(lambda: None)
    seen = []
    b.wait_for_goroutine_free(lambda: seen.append(threading.get_ident()))  # without the GIL it runs
    assert seen and seen[0] != threading.get_ident()


def test_a_callback_still_running_when_its_call_returns_reaches_no_one() -> None:
    import time

    def slow() -> None:
        time.sleep(0.05)
        raise KeyError("late")

    b.call_late(slow)  # returns while slow sleeps
    b.nap(0.1)  # the KeyError is no one's: never this call's
    assert b.late_error() == "pymodule: a callback was called after the call it came with returned"


def test_a_call_with_callbacks_holds_its_instance_against_other_threads() -> None:
    c = Counter("held")
    started, errors = threading.Event(), []

    def other() -> None:
        started.wait()
        try:
            c.spin(10)
        except RuntimeError as e:
            errors.append(str(e))

    th = threading.Thread(target=other)
    th.start()

    def callback(v: float) -> float:
        started.set()
        th.join()  # the other thread's call runs while this callback waits
        return v

    c.each(np.ones(1), callback)
    assert errors == ["Counter.spin(): argument 'self': the bindtest.Counter is in use by Counter.each() on another "
                      "thread, which released the GIL or runs Python code"]
    # On the call's own thread, a callback's calls on the instance go through, with the GIL or without it.
    c.each_free(np.ones(2), lambda v: c.add(np.ones(1)))


TABLE_STRESS = """
import threading, time, numpy as np, bindtest as b
t, other = b.Table(), b.Table()
stop = time.monotonic() + 3
refused = {}
class Switches:
    # An int whose conversion runs Python code that lets other threads run.
    def __init__(self, v): self.v = v
    def __index__(self):
        time.sleep(0)
        return self.v
class Producer:
    # A tensor whose __dlpack__ lets other threads run.
    def __dlpack__(self, **kwargs):
        time.sleep(0)
        return np.ones(2).__dlpack__(**kwargs)
def guard(name, f):
    def run():
        while time.monotonic() < stop:
            try:
                f()
            except RuntimeError as e:
                assert "is in use by" in str(e), e
                refused[name] = refused.get(name, 0) + 1
    return run
def put():  # holds the GIL, but its arguments' conversion runs Python code
    for i in range(8):
        t.put(Switches(i), Switches(i))
def fill():  # a setter whose value's conversion runs Python code
    t.size = Switches(40)
def merge():  # two instances in one call
    other.merge(t)
    t.merge(other)
def churn():  # releases the GIL
    t.churn(20000)
counter = b.Counter("c")
def add():  # a tensor argument's __dlpack__ runs Python code
    counter.add(Producer())
def spin():
    counter.spin(Switches(10000))
calls = [("put", put), ("put", put), ("fill", fill), ("merge", merge), ("churn", churn), ("churn", churn),
         ("add", add), ("spin", spin)]
threads = [threading.Thread(target=guard(n, f)) for n, f in calls]
for th in threads: th.start()
for th in threads: th.join()
print(sorted(refused))
"""


def test_no_two_calls_run_on_one_value_at_once() -> None:
    # Threads mix calls that hold the GIL, release it, set properties and convert arguments by Python code that
    # lets other threads run: each call holds its instances for the whole call, and another thread's call is
    # refused with RuntimeError. A Go map behind the class kills the process when two calls write it at once
    # (it did before every call held its instances: "fatal error: concurrent map writes").
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", TABLE_STRESS], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    refused = eval(done.stdout)
    assert {"put", "fill", "merge", "churn"} <= set(refused), refused


def test_a_call_converting_its_arguments_holds_its_instance() -> None:
    # While a call that holds the GIL converts a later argument by Python code, another thread's call on its
    # instance is refused, naming the holder.
    t = b.Table()
    errors: list[str] = []

    class Waits:
        def __index__(self) -> int:
            th = threading.Thread(target=other)
            th.start()
            th.join()  # the other thread's call runs while this conversion waits
            return 1

    def other() -> None:
        try:
            t.churn(1)
        except RuntimeError as e:
            errors.append(str(e))

    t.put(Waits(), 2)
    assert errors == ["Table.churn(): argument 'self': the bindtest.Table is in use by Table.put() on another thread, "
                      "which released the GIL or runs Python code"]
    assert t.size == 4096  # put's keys, and nothing of churn's


def test_an_enum_result_no_member_has_is_a_value_error_naming_the_function() -> None:
    with pytest.raises(ValueError, match=r"^bad_mode\(\): returned 7, which is no member of Mode$"):
        b.bad_mode()


def test_an_expired_callback_names_no_go_package() -> None:
    b.keep(lambda: 1)
    with pytest.raises(RuntimeError, match=r"^call_kept\(\): a callback was called after the call it came with "
                                           r"returned$"):
        b.call_kept()


REVIVED = """
import gc, weakref, bindtest as b
def revive(name, drop):
    c = b.Counter(name, 5.0)
    b.stash(c)
    got = []
    def callback():
        r = b.unstash()  # the dying instance's value, asked for from its weak reference's callback
        got.append((r.name, r.total))
        if not drop:
            got.append(r)
        del r  # dropped inside the callback: the new instance dies before the old one's death is done
        got.append(b.unstash().name)  # asked again: a third instance
    weakref.finalize(c, callback)
    del c
    return got
kept = revive("kept", drop=False)
assert kept[0] == ("kept", 5.0) and kept[1].name == "kept" and kept[2] == "kept", kept
dropped = revive("dropped", drop=True)
assert dropped == [("dropped", 5.0), "dropped"], dropped
gc.collect()
# Each slot let go of once: many new instances each read their own value.
many = [b.Counter("n%d" % i, float(i)) for i in range(300)]
b.collect()
assert [(c.name, c.total) for c in many] == [("n%d" % i, float(i)) for i in range(300)]
assert kept[1].name == "kept" and b.unstash().name == "dropped"
print("ok")
"""


def test_an_instance_asked_for_while_it_dies_is_never_handed_out() -> None:
    # A weak reference's callback runs while the instance dies; a value Go returns then gets a new instance (the
    # same Go value), never the dying object, and the slot is let go of once. PYTHONMALLOC=debug: a read of the freed
    # object crashes the child (it did before the fix).
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", REVIVED], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONMALLOC": "debug"})
    assert done.returncode == 0 and done.stdout == "ok\n", done


def test_a_zero_constructor_and_a_method_value_getter() -> None:
    t = b.Tally()
    assert t.count == 0 and t.bump() == 1 and t.bump() == 2 and t.count == 2
    assert str(inspect.signature(b.Tally)) == "()"
    with pytest.raises(TypeError, match=r"takes 0 positional arguments but 1 was given|takes no"):
        b.Tally(1)
    with pytest.raises(AttributeError, match="not writable|has no setter"):
        t.count = 3  # type: ignore[misc]
    # Properties and fields are getset descriptors, as a C type's attributes are (np.ndarray's shape among them):
    # data descriptors that type checkers read as properties, which is how the stub writes them.
    for name, cls in [("count", b.Tally), ("adds", Counter), ("total", Counter)]:
        d = inspect.getattr_static(cls, name)
        assert type(d).__name__ == "getset_descriptor" and inspect.isdatadescriptor(d), (name, d)
        assert type(d) is type(inspect.getattr_static(np.ndarray, "shape"))


def test_a_value_whose_instance_died_gets_a_new_one_that_lasts() -> None:
    # An instance's death lets go of its Go value in a batch, later (a call that holds the GIL lets go of the batch
    # first); a value Go kept and returns before then gets a new instance, which the batch must not let go of.
    c = Counter("kept", 2.0)
    b.stash(c)
    del c
    gc.collect()
    revived = b.unstash_free()
    for i in range(300):  # many deaths: the batch of dead slots is let go of more than once
        Counter(str(i))
    b.collect()
    assert revived.name == "kept" and revived.total == 2.0 and b.unstash() is revived
