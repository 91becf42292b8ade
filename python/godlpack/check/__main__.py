"""python -m godlpack.check TARGET [TARGET ...]: the DLPack conformance checker's command line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import IO, Optional

from godlpack.check._model import Side
from godlpack.check._report import document, use_colour, write_table
from godlpack.check._run import Report, TargetError, load, run_in_process, run_isolated, select_checks


def printable(stream: IO[str]) -> IO[str]:
    """stream, made to write what its encoding cannot (a lone surrogate from a path, in a library's message) as
    escapes rather than raise: the report is written whatever the text holds."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="backslashreplace")
    return stream


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m godlpack.check",
        description="Check libraries' DLPack implementations, as producers (__dlpack__, __dlpack_device__, the C "
        "exchange API) and as consumers (from_dlpack), against DLPack 1.x and the Python array API standard. "
        "Each check holds a rule of the strength its text gives it: must, should, or note (the checker's "
        "inference). Exits 1 when a must rule fails (or a should rule, with --strict), 2 when a target cannot be "
        "loaded (the others are still checked and reported).",
    )
    parser.add_argument("targets", nargs="+", metavar="TARGET",
                        help="a library (numpy, torch, jax.numpy, array_api_strict, godlpack, tvm_ffi, pyarrow, "
                        "paddle, tensorflow, mlx.core, any array API namespace) or module:factory returning a "
                        "godlpack.check.Target")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE ('-': stdout)")
    parser.add_argument("--only", type=str.lower, choices=["producer", "consumer"], help="check one side only")
    parser.add_argument("-k", metavar="PATTERN", dest="patterns", action="append",
                        help="only the checks whose id contains PATTERN, a substring or a glob (* ? [) matching part "
                        "of the id; given again, the checks either selects")
    parser.add_argument("--strict", action="store_true",
                        help="a failed should rule fails the run too (notes never do)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the checks in this process (faster; a library that crashes ends the run)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S",
                        help="seconds a check may take before it fails as hung (default 120); a library that hangs "
                        "in two checks in a row is stopped")
    parser.add_argument("--list", action="store_true", help="list the checks, their levels and rules, run nothing")
    args = parser.parse_args(argv)
    out, err = printable(sys.stdout), printable(sys.stderr)

    only: Optional[Side] = args.only
    checks = select_checks(only, args.patterns)
    if args.list:
        for c in checks:
            out.write(f"{c.id}  [{c.level}]\n    {c.rule}\n")
        return 0
    if not checks:
        err.write(f"no check matches -k {' '.join(map(repr, args.patterns or []))}\n")
        return 2
    reports: list[Report] = []
    errors: dict[str, str] = {}
    for spec in args.targets:
        try:
            if args.in_process:
                reports.append(run_in_process(load(spec), checks, spec))
            else:
                reports.append(run_isolated(spec, checks, args.timeout))
        except TargetError as error:
            errors[spec] = str(error)
    # The JSON first: a CI job that reads it has it whatever happens to the terminal's table.
    if args.json:
        text = json.dumps(document(reports, args.strict, errors), indent=1)
        if args.json == "-":
            out.write(text + "\n")
        else:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(text + "\n")
    if args.json != "-":
        write_table(reports, out, use_colour(out))
    for spec, why in errors.items():
        err.write(f"cannot check {spec}: {why}\n")
    if errors:
        return 2
    return 1 if any(r.failed(args.strict) for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
