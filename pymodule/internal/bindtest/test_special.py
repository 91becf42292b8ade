"""Special methods fill their slots: bindtest's Vec, VecIter, Gain and Squares held against Python classes of the same
methods, and the special names the binder refuses at import.

Run in a process of its own with bindtest (tests/extensions/test_binder.py, or `make example-test`).
"""

from __future__ import annotations

import inspect
import math
import operator
import threading
from collections.abc import Callable, Hashable
from types import SimpleNamespace
from typing import Any

import pytest

import bindtest as b


def _index(i: Any) -> int:
    if isinstance(i, float):  # a Go int parameter takes what has __index__, as operator.index does
        raise TypeError("not an int")
    return operator.index(i)


def _float(x: Any) -> float:
    if isinstance(x, (str, bytes, complex)):  # a Go float parameter takes what has __float__ or __index__
        raise TypeError("not a float")
    return float(x)


class PyVec:
    """bindtest.Vec as a Python class: the same methods, typed as the Go ones are."""

    def __init__(self, n: int) -> None:
        self.v = [float(i) for i in range(_index(n))]

    def _at(self, i: Any) -> int:
        i = _index(i)
        j = i + len(self.v) if i < 0 else i
        if not 0 <= j < len(self.v):
            raise IndexError(f"index {i} out of range")
        return j

    def _new(self, values: list[float]) -> PyVec:
        out = PyVec(0)
        out.v = values
        return out

    def _same(self, other: PyVec) -> None:
        if len(self.v) != len(other.v):
            raise ValueError("vectors of different lengths")

    def __len__(self) -> int:
        return len(self.v)

    def __getitem__(self, i: Any) -> float:
        return self.v[self._at(i)]

    def __setitem__(self, i: Any, x: Any) -> None:
        j, x = self._at(i), _float(x)
        self.v[j] = x

    def __delitem__(self, i: Any) -> None:
        del self.v[self._at(i)]

    def __contains__(self, x: Any) -> bool:
        return _float(x) in self.v

    def __iter__(self) -> PyVecIter:
        return PyVecIter(self)

    def __call__(self, scale: Any = 1.0) -> float:
        return sum(self.v) * _float(scale)

    def __repr__(self) -> str:
        return "Vec(" + ", ".join("%g" % x for x in self.v) + ")"

    def __str__(self) -> str:
        return "<" + " ".join("%g" % x for x in self.v) + ">"

    def __bool__(self) -> bool:
        return bool(self.v)

    def __hash__(self) -> int:
        return int(sum(self.v))

    def __eq__(self, other: object) -> bool:
        return self.v == other.v if isinstance(other, PyVec) else NotImplemented

    def __lt__(self, other: object) -> bool:
        return self.v < other.v if isinstance(other, PyVec) else NotImplemented

    def __add__(self, other: object) -> PyVec:
        if not isinstance(other, PyVec):
            return NotImplemented
        self._same(other)
        return self._new([a + c for a, c in zip(self.v, other.v)])

    def __radd__(self, x: Any) -> PyVec:
        try:
            x = _float(x)
        except TypeError:
            return NotImplemented
        return self._new([x + a for a in self.v])

    def __iadd__(self, other: object) -> PyVec:
        if not isinstance(other, PyVec):
            return NotImplemented
        self._same(other)
        self.v = [a + c for a, c in zip(self.v, other.v)]
        return self

    def __sub__(self, other: object) -> PyVec:
        if not isinstance(other, PyVec):
            return NotImplemented
        self._same(other)
        return self._new([a - c for a, c in zip(self.v, other.v)])

    def __mul__(self, k: Any) -> PyVec:
        try:
            k = _float(k)
        except TypeError:
            return NotImplemented
        return self._new([a * k for a in self.v])

    __rmul__ = __mul__

    def __pow__(self, e: Any) -> PyVec:
        try:
            e = _float(e)
        except TypeError:
            return NotImplemented
        return self._new([a**e for a in self.v])

    def __matmul__(self, other: object) -> float:
        if not isinstance(other, PyVec):
            return NotImplemented
        self._same(other)
        return sum(a * c for a, c in zip(self.v, other.v))

    def __neg__(self) -> PyVec:
        return self._new([-a for a in self.v])

    def __pos__(self) -> PyVec:
        return self._new(list(self.v))

    def __abs__(self) -> float:
        return math.sqrt(sum(a * a for a in self.v))

    def __invert__(self) -> PyVec:
        return self._new(self.v[::-1])

    def __index__(self) -> int:
        return len(self.v)

    def __int__(self) -> int:
        return int(sum(self.v))

    def __float__(self) -> float:
        return sum(self.v)

    def __format__(self, spec: str) -> str:
        return "Vec:" + spec


class PyVecIter:
    def __init__(self, vec: PyVec) -> None:
        self.vec, self.next = vec, 0

    def __iter__(self) -> PyVecIter:
        return self

    def __next__(self) -> float:
        if self.next >= len(self.vec.v):
            raise StopIteration
        self.next += 1
        return self.vec.v[self.next - 1]


class PyGain:
    def __init__(self, k: Any) -> None:
        self.k = _float(k)

    def __rmul__(self, v: object) -> PyVec:
        return v * self.k if isinstance(v, PyVec) else NotImplemented

    def __eq__(self, other: object) -> bool:
        return self.k == other.k if isinstance(other, PyGain) else NotImplemented


class PySquares:
    def __init__(self, n: Any) -> None:
        self.n = _index(n)

    def __getitem__(self, i: Any) -> int:
        i = _index(i)
        if not 0 <= i < self.n:
            raise IndexError(f"index {i} out of range")
        return i * i


GO = SimpleNamespace(Vec=b.Vec, Gain=b.Gain, Squares=b.Squares)
PY = SimpleNamespace(Vec=PyVec, Gain=PyGain, Squares=PySquares)


def _set(m: Any, i: Any, x: Any) -> Any:
    v = m.Vec(3)
    v[i] = x
    return v


def _del(m: Any, i: Any) -> Any:
    v = m.Vec(4)
    del v[i]
    return v


def _next(m: Any, n: int) -> Any:
    it = iter(m.Vec(2))
    return [next(it) for _ in range(n)]


def _iadd(m: Any, other: Any) -> Any:
    v = m.Vec(3)
    w = v
    v += other
    return v, v is w


# Each case is an expression of a namespace holding Vec, Gain and Squares, run on bindtest's and on the Python ones.
CASES: dict[str, Callable[[Any], Any]] = {
    "len": lambda m: len(m.Vec(3)),
    "len of none": lambda m: len(m.Vec(0)),
    "in": lambda m: 2 in m.Vec(3),
    "in, an int of float's value": lambda m: 2.0 in m.Vec(3),
    "not in": lambda m: 5.5 in m.Vec(3),
    "in, a str": lambda m: "a" in m.Vec(3),
    "[]": lambda m: m.Vec(3)[1],
    "[-1]": lambda m: m.Vec(3)[-1],
    "[-5], no index wrapping": lambda m: m.Vec(3)[-5],
    "[] beyond": lambda m: m.Vec(3)[3],
    "[] of a str": lambda m: m.Vec(3)["a"],
    "[] of a float": lambda m: m.Vec(3)[1.0],
    "[] of a bool": lambda m: m.Vec(3)[True],
    "[]=": lambda m: repr(_set(m, -1, 7)),
    "[]= beyond": lambda m: _set(m, 3, 7),
    "[]= of a str": lambda m: _set(m, 0, "7"),
    "del []": lambda m: repr(_del(m, 1)),
    "del [] beyond": lambda m: _del(m, 9),
    "iter": lambda m: list(iter(m.Vec(3))),
    "for": lambda m: [x * 2 for x in m.Vec(3)],
    "iter of an iterator is itself": lambda m: (lambda it: iter(it) is it)(iter(m.Vec(3))),
    "next": lambda m: _next(m, 2),
    "next beyond": lambda m: _next(m, 3),
    "next with a default": lambda m: next(iter(m.Vec(0)), "end"),
    "()": lambda m: m.Vec(4)(),
    "(2)": lambda m: m.Vec(4)(2),
    "(scale=3)": lambda m: m.Vec(4)(scale=3),
    "('a')": lambda m: m.Vec(4)("a"),
    "(1, 2)": lambda m: m.Vec(4)(1, 2),
    "callable": lambda m: callable(m.Vec(1)),
    "repr": lambda m: repr(m.Vec(3)),
    "str": lambda m: str(m.Vec(3)),
    "f-string": lambda m: f"{m.Vec(2)!s} {m.Vec(2)!r} {m.Vec(2):spec}",
    "bool": lambda m: bool(m.Vec(2)),
    "bool of none": lambda m: bool(m.Vec(0)),
    "if": lambda m: "yes" if m.Vec(0) else "no",
    "==": lambda m: m.Vec(3) == m.Vec(3),
    "== another": lambda m: m.Vec(3) == m.Vec(4),
    "== an int": lambda m: m.Vec(3) == 3,
    "!=": lambda m: m.Vec(3) != m.Vec(3),
    "!= another": lambda m: m.Vec(3) != m.Vec(2),
    "<": lambda m: m.Vec(2) < m.Vec(3),
    "< reversed": lambda m: m.Vec(3) < m.Vec(2),
    ">, its reflection": lambda m: m.Vec(3) > m.Vec(2),
    "<=, given by neither": lambda m: m.Vec(3) <= m.Vec(2),
    "< an int": lambda m: m.Vec(3) < 3,
    "hash": lambda m: hash(m.Vec(4)),
    "hash of -1 is -2": lambda m: hash(_set(m, 2, -2)),
    "hash of equal vectors": lambda m: hash(m.Vec(3)) == hash(m.Vec(3)),
    "in a set": lambda m: m.Vec(3) in {m.Vec(3)},
    "+": lambda m: repr(m.Vec(3) + m.Vec(3)),
    "+ of another length": lambda m: m.Vec(3) + m.Vec(2),
    "+ a float, unsupported": lambda m: m.Vec(3) + 1.0,
    "reflected +": lambda m: repr(1.5 + m.Vec(3)),
    "reflected + of an int": lambda m: repr(2 + m.Vec(3)),
    "reflected + of a str": lambda m: "a" + m.Vec(3),
    "+=": lambda m: (lambda r: (repr(r[0]), r[1]))(_iadd(m, m.Vec(3))),
    "+= of another length": lambda m: _iadd(m, m.Vec(1)),
    "+= a float, unsupported": lambda m: _iadd(m, 1.0),
    "-": lambda m: repr(m.Vec(3) - m.Vec(3)),
    "- reflected, given by neither": lambda m: 1.0 - m.Vec(3),
    "*": lambda m: repr(m.Vec(3) * 2),
    "reflected *": lambda m: repr(2 * m.Vec(3)),
    "* another class's reflection": lambda m: repr(m.Vec(3) * m.Gain(3)),
    "reflected * of another class, unsupported": lambda m: m.Gain(3) * m.Vec(3),
    "**": lambda m: repr(m.Vec(3) ** 2),
    "pow of three": lambda m: pow(m.Vec(3), 2, 5),
    "@": lambda m: m.Vec(3) @ m.Vec(3),
    "@ of another length": lambda m: m.Vec(3) @ m.Vec(2),
    "@ a float, unsupported": lambda m: m.Vec(3) @ 2.0,
    "/ unsupported": lambda m: m.Vec(3) / 2.0,
    "-x": lambda m: repr(-m.Vec(3)),
    "+x": lambda m: repr(+m.Vec(3)),
    "abs": lambda m: abs(m.Vec(3)),
    "~": lambda m: repr(~m.Vec(3)),
    "operator.index": lambda m: operator.index(m.Vec(3)),
    "an index of a list": lambda m: [10, 11, 12, 13][m.Vec(2)],
    "range": lambda m: list(range(m.Vec(3))),
    "int()": lambda m: int(m.Vec(4)),
    "float()": lambda m: float(m.Vec(4)),
    "round(), looked up by name: unsupported": lambda m: round(m.Vec(2)),
    "format, looked up by name": lambda m: format(m.Vec(2), "x"),
    "Gain ==": lambda m: m.Gain(2) == m.Gain(2),
    "Gain !=": lambda m: m.Gain(2) != m.Gain(2),
    "Gain hash, unhashable": lambda m: hash(m.Gain(2)),
    "Gain is no Hashable": lambda m: isinstance(m.Gain(2), Hashable),
    "Squares iterate by index": lambda m: list(m.Squares(4)),
    "Squares in, by iteration": lambda m: (4 in m.Squares(4), 5 in m.Squares(4)),
    "Squares len, unsupported": lambda m: len(m.Squares(4)),
}


def outcome(case: Callable[[Any], Any], m: Any) -> tuple[str, Any]:
    try:
        return "returns", case(m)
    except Exception as e:  # the exception's type is what the two must share
        return "raises", type(e)


@pytest.mark.parametrize("name", list(CASES))
def test_special_methods_behave_as_a_python_classs(name: str) -> None:
    assert outcome(CASES[name], GO) == outcome(CASES[name], PY)


SPECIAL_NAMES = """__len__ __getitem__ __setitem__ __delitem__ __contains__ __iter__ __next__ __call__ __repr__ __str__
__bool__ __hash__ __eq__ __ne__ __lt__ __le__ __gt__ __ge__ __add__ __radd__ __iadd__ __sub__ __rsub__ __isub__ __mul__
__rmul__ __imul__ __matmul__ __rmatmul__ __pow__ __rpow__ __truediv__ __rtruediv__ __neg__ __pos__ __abs__ __invert__
__index__ __int__ __float__ __format__ __divmod__ __rdivmod__ __and__ __rand__""".split()


@pytest.mark.parametrize("go, py", [(b.Vec, PyVec), (b.VecIter, PyVecIter), (b.Gain, PyGain), (b.Squares, PySquares)])
def test_a_class_has_the_special_attributes_a_python_class_of_its_methods_has(go: type, py: type) -> None:
    # A slot shared by two names (__add__ and __radd__, the comparisons) leaves no attribute for the one not given.
    assert [n for n in SPECIAL_NAMES if hasattr(go, n)] == [n for n in SPECIAL_NAMES if hasattr(py, n)]


def test_special_methods_are_the_authors_functions_with_their_signatures() -> None:
    assert str(inspect.signature(b.Vec.__getitem__)) == "(self, i: 'int', /) -> 'float'"
    assert str(inspect.signature(b.Vec.__setitem__)) == "(self, i: 'int', x: 'float', /) -> None"
    assert str(inspect.signature(b.Vec.__call__)) == "(self, /, scale: 'float' = 1.0) -> 'float'"
    assert b.Vec.__len__.__doc__ == "The number of elements." and b.Vec.__len__.__qualname__ == "Vec.__len__"
    v = b.Vec(3)
    assert v.__len__() == 3 and v.__getitem__(-1) == 2.0 and v.__add__(1.0) is NotImplemented
    with pytest.raises(IndexError, match=r"^index -5 out of range$"):  # the key as given: Go counts from the end
        v[-5]
    assert b.Gain.__hash__ is None


def test_a_special_method_holds_its_instance_as_any_call() -> None:
    # len() of a Shelf is a shared call: it runs beside shared reads, and is refused while a write holds the shelf.
    s = b.Shelf()
    started = threading.Event()

    def write() -> None:
        started.set()
        s.write(0.3)

    t = threading.Thread(target=write)
    t.start()
    started.wait()
    refused = None
    for _ in range(200):
        try:
            len(s)
        except RuntimeError as e:
            refused = str(e)
            break
        threading.Event().wait(0.001)
    t.join()
    assert refused == ("Shelf.__len__(): argument 'self': the bindtest.Shelf is in use by Shelf.write() on another "
                       "thread, which released the GIL or runs Python code")
    assert len(s) == 1


@pytest.mark.parametrize("kind, message", [
    ("init", "refused_init: class Bad: __init__: the constructor is Init (or InitZero), not a method"),
    ("del", "refused_del: class Bad: __del__: an instance's death lets go of its Go value"),
    ("unsupported", "refused_unsupported: class Bad: __getattr__: not a special method the binder supports"),
    ("misspelt", "refused_misspelt: class Bad: __lenn__: not a special method the binder supports"),
    ("twice", "refused_twice: class Bad: __repr__ given twice: by Repr and by Method"),
    ("result", "refused_result: class Bad: __len__: must return an integer (and an error, or not)"),
])
def test_a_special_name_the_binder_refuses_fails_the_import_naming_it(kind: str, message: str) -> None:
    with pytest.raises(ImportError) as e:
        b.refused_class(kind)
    assert str(e.value).startswith(message), e.value
