"""python -m godlpack.check._worker SPEC FD IDFILE: run the checks named in IDFILE on SPEC, reporting on FD.

Started by godlpack.check._run. Each message is one JSON line: {"header": ...} once the library loaded (or with
"error" when it did not), then {"start": id} before each check and {"result": ...} after it, and {"done": true}
last: the checker reads messages, not the end of the pipe, which a process the library forked may hold open. The
pipe is not inherited by programs the library runs. The worker ends with os._exit: tensors a library still holds
must not be released while the interpreter finalizes, after the checker's ctypes deleters are gone.
"""

from __future__ import annotations

import gc
import json
import os
import sys


def main() -> None:
    spec, fd, idfile = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.set_inheritable(fd, False)
    out = os.fdopen(fd, "w", buffering=1)

    def send(message: dict[str, object]) -> None:
        out.write(json.dumps(message) + "\n")
        out.flush()

    from godlpack.check._model import run_body
    from godlpack.check._run import TargetError, all_checks, load

    try:
        target = load(spec)
    except TargetError as error:
        send({"header": {"error": str(error)}})
        send({"done": True})
        os._exit(0)
    send({"header": {"name": target.name, "version": target.version, "notes": target.notes}})
    with open(idfile) as f:
        wanted = set(f.read().split())
    gc.collect()
    gc.freeze()
    for check in all_checks():
        if check.id in wanted:
            send({"start": check.id})
            send({"result": run_body(check, target).to_json()})
    send({"done": True})
    os._exit(0)


if __name__ == "__main__":
    main()
