"""python -m godlpack.check TARGET [TARGET ...]: the DLPack conformance checker's command line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Optional

from godlpack.check._model import Side
from godlpack.check._report import document, use_colour, write_table
from godlpack.check._run import Report, TargetError, load, run_in_process, run_isolated, select_checks


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m godlpack.check",
        description="Check libraries' DLPack implementations, as producers (__dlpack__, __dlpack_device__, the C "
        "exchange API) and as consumers (from_dlpack), against DLPack 1.x and the Python array API standard. "
        "Each check holds a rule of the strength its text gives it: must, should, or note (the checker's "
        "inference). Exits 1 when a must rule fails (or a should rule, with --strict), 2 when a target cannot be "
        "loaded.",
    )
    parser.add_argument("targets", nargs="+", metavar="TARGET",
                        help="a library (numpy, torch, jax.numpy, array_api_strict, godlpack, tvm_ffi, pyarrow, "
                        "paddle, tensorflow, mlx.core, any array API namespace) or module:factory returning a "
                        "godlpack.check.Target")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE ('-': stdout)")
    parser.add_argument("--only", type=str.lower, choices=["producer", "consumer"], help="check one side only")
    parser.add_argument("-k", metavar="PATTERN", dest="pattern",
                        help="only the checks whose id contains PATTERN (a glob when it has * ? or [)")
    parser.add_argument("--strict", action="store_true",
                        help="a failed should rule fails the run too (notes never do)")
    parser.add_argument("--in-process", action="store_true",
                        help="run the checks in this process (faster; a library that crashes ends the run)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S",
                        help="seconds a check may take before it fails as hung (default 120)")
    parser.add_argument("--list", action="store_true", help="list the checks, their levels and rules, run nothing")
    args = parser.parse_args(argv)

    only: Optional[Side] = args.only
    checks = select_checks(only, args.pattern)
    if args.list:
        for c in checks:
            print(f"{c.id}  [{c.level}]\n    {c.rule}")
        return 0
    if not checks:
        print(f"no check matches -k {args.pattern!r}", file=sys.stderr)
        return 2
    reports: list[Report] = []
    for spec in args.targets:
        try:
            if args.in_process:
                reports.append(run_in_process(load(spec), checks, spec))
            else:
                reports.append(run_isolated(spec, checks, args.timeout))
        except TargetError as error:
            print(f"cannot check {spec}: {error}", file=sys.stderr)
            return 2
    to_stdout = args.json == "-"
    if not to_stdout:
        write_table(reports, sys.stdout, use_colour(sys.stdout))
    if args.json:
        text = json.dumps(document(reports, args.strict), indent=1)
        if to_stdout:
            print(text)
        else:
            with open(args.json, "w") as f:
                f.write(text + "\n")
    return 1 if any(r.failed(args.strict) for r in reports) else 0


if __name__ == "__main__":
    sys.exit(main())
