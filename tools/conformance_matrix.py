"""Regenerate the conformance matrix of docs/check.md with the checker itself.

    python tools/conformance_matrix.py --doc docs/check.md godlpack numpy torch jax.numpy=.venv-matrix/bin/python ...

Each TARGET (or TARGET=PYTHON, to run it with another interpreter, one where that library is installed) is checked
with `PYTHON -m godlpack.check TARGET --json FILE`; the table between the matrix markers of the doc is rewritten:
one row a check, one column a library, and below it what each failure and difference was.
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

MARK = {"pass": "✓", "fail": "**✗**", "n/a": "–", "difference": "≠"}
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
        lines.append(f"| `{check}` | " + " | ".join(MARK[results[check]["outcome"]] for results in by_target) + " |")
    lines.append("")
    lines.append("| library | passed | failed | differences | not applicable |")
    lines.append("| --- | ---: | ---: | ---: | ---: |")
    for t in targets:
        tally = {o: sum(1 for r in t["results"] if r["outcome"] == o) for o in MARK}
        lines.append(f"| {t['name']} | {tally['pass']} | {tally['fail']} | {tally['difference']} | {tally['n/a']} |")
    for t in targets:
        found = [r for r in t["results"] if r["outcome"] in ("fail", "difference")]
        lines.append("")
        lines.append(f"**{t['name']} {t['version']}**" + (f" ({'; '.join(t['notes'])})" if t["notes"] else "")
                     + (": every check passed or does not apply." if not found else ":"))
        if found:
            lines.append("")
        for r in found:
            detail = r["detail"].replace("|", "\\|").replace("\n", " ")
            lines.append(f"- `{r['check']}` ({r['outcome']}): {detail}")
    return "\n".join(lines)


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
