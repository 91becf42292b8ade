"""godlpack.check: a DLPack conformance checker for any library (`python -m godlpack.check TARGET`).

It holds a library's DLPack implementation to DLPack 1.x (dlpack.h and DLPack's Python specification) and to the
Python array API standard: as a producer (its arrays' __dlpack__ and __dlpack_device__, its type's C exchange API)
and as a consumer (its from_dlpack, fed by the checker's own producer, whose deleters count their calls). Every
field is read with ctypes, never through the library under check. docs/check.md lists the checks and their rules.

From Python::

    from godlpack.check import load_target, run_in_process, run_isolated, select_checks

    report = run_isolated("numpy", select_checks())
    failures = [r for r in report.results if r.outcome is Outcome.FAIL and r.level == "must"]
"""

from godlpack.check._model import Check, Outcome, Result, Side
from godlpack.check._verdicts import Difference, Failed, Level, NotApplicable
from godlpack.check._run import Report, TargetError, all_checks, run_in_process, run_isolated, select_checks
from godlpack.check._adapters import load_target
from godlpack.check._target import DeviceArrays, Target, array_api_target

__all__ = [
    "Check",
    "DeviceArrays",
    "Difference",
    "Failed",
    "Level",
    "NotApplicable",
    "Outcome",
    "Report",
    "Result",
    "Side",
    "Target",
    "TargetError",
    "all_checks",
    "array_api_target",
    "load_target",
    "run_in_process",
    "run_isolated",
    "select_checks",
]
