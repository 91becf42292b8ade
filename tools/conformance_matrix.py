"""Regenerate the conformance matrix of docs/check.md with the checker itself.

    python tools/conformance_matrix.py --doc docs/check.md godlpack numpy torch jax.numpy=.venv-matrix/bin/python ...

Each TARGET (or TARGET=PYTHON, to run it with another interpreter, one where that library is installed) is checked
with `PYTHON -m godlpack.check TARGET --json FILE`; the table between the matrix markers of the doc is rewritten:
one row a check, one column a library, each failure marked by the level of the rule it broke, and below it what
each failure and difference was, with its level and the words of the rule.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

MARK = {"pass": "✓", "n/a": "–", "difference": "≠"}
# A failure's mark says the level of the rule it broke.
FAIL_MARK = {"must": "**✗**", "should": "✗", "note": "(✗)"}


def mark(result: dict[str, Any]) -> str:
    return FAIL_MARK[result["level"]] if result["outcome"] == "fail" else MARK[result["outcome"]]
START, END = "<!-- matrix:start -->", "<!-- matrix:end -->"


def run(spec: str, python: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "r.json"
        done = subprocess.run([python, "-m", "godlpack.check", spec, "--json", str(out)],
                              capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
        if done.returncode not in (0, 1):
            raise SystemExit(f"{spec}: the checker exited {done.returncode}: {done.stderr.strip()}")
        target: dict[str, Any] = json.loads(out.read_text())["targets"][0]
        return target


def table(targets: list[dict[str, Any]]) -> str:
    checks = [r["check"] for r in targets[0]["results"]]
    by_target = [{r["check"]: r for r in t["results"]} for t in targets]
    lines = ["| check | " + " | ".join(f"{t['name']} {t['version']}" for t in targets) + " |",
             "| --- | " + " | ".join(":---:" for _ in targets) + " |"]
    for check in checks:
        lines.append(f"| `{check}` | " + " | ".join(mark(results[check]) for results in by_target) + " |")
    lines.append("")
    lines.append("| library | passed | failed: must | should | note | differences | not applicable (because of "
                 "a failure) |")
    lines.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for t in targets:
        rs = t["results"]

        def count(outcome: str, level: str = "") -> int:
            return sum(1 for r in rs if r["outcome"] == outcome and level in ("", r["level"]))

        spoiled = sum(1 for r in rs if r["outcome"] == "n/a" and r.get("cause"))
        lines.append(f"| {t['name']} | {count('pass')} | {count('fail', 'must')} | {count('fail', 'should')} | "
                     f"{count('fail', 'note')} | {count('difference')} | {count('n/a')} ({spoiled}) |")
    for t in targets:
        found = [r for r in t["results"] if r["outcome"] in ("fail", "difference")]
        lines.append("")
        lines.append(f"**{t['name']} {t['version']}**" + (f" ({'; '.join(t['notes'])})" if t["notes"] else "")
                     + (": every check passed or does not apply." if not found else ":"))
        if found:
            lines.append("")
        for r in found:
            detail = cell(r["detail"])
            what = f"fail, {r['level']}" if r["outcome"] == "fail" else "difference"
            lines.append(f"- `{r['check']}` ({what}): {detail}. Rule: {cell(r['rule'])}")
        spoiled_by: dict[str, int] = {}
        for r in t["results"]:
            if r["outcome"] == "n/a" and r.get("cause"):
                spoiled_by[r["cause"]] = spoiled_by.get(r["cause"], 0) + 1
        for cause, n in spoiled_by.items():
            lines.append(f"- not applicable because of `{cause}`: {n} check{'s' if n > 1 else ''}")
    return "\n".join(lines)


def cell(text: str) -> str:
    """text as one line of a Markdown table or list."""
    return text.replace("|", "\\|").replace("\n", " ").strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--doc", type=Path, required=True)
    parser.add_argument("targets", nargs="+", metavar="TARGET[=PYTHON]")
    args = parser.parse_args()
    results = []
    for item in args.targets:
        spec, _, python = item.partition("=")
        results.append(run(spec, python or sys.executable))
        print(f"checked {spec}", file=sys.stderr)
    text = args.doc.read_text()
    pattern = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{args.doc} has no {START} ... {END} section")
    args.doc.write_text(pattern.sub(lambda _: f"{START}\n{table(results)}\n{END}", text))


if __name__ == "__main__":
    main()
