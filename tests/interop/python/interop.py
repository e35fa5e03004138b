"""What the Python interop clients share: the PASS/FAIL lines and the command line.

A client script defines `async def run(server, mode)` and calls `serve(run, __doc__)`.
"""
import asyncio
import json
import sys
import traceback

from mcp import StdioServerParameters

_counts = {"passed": 0, "failed": 0}


def raw(value):
    """The JSON a response carried, as the client parsed it."""
    try:
        return json.dumps(value.model_dump(mode="json", by_alias=True, exclude_none=True), sort_keys=True)
    except AttributeError:
        return json.dumps(value, default=repr, sort_keys=True)


def check(name, ok, seen=None):
    if ok:
        _counts["passed"] += 1
        print(f"PASS {name}")
    else:
        _counts["failed"] += 1
        print(f"FAIL {name}")
        if seen is not None:
            print(f"     saw: {seen if isinstance(seen, str) else raw(seen)}")


def serve(run, usage):
    """Reads `--mode auto|legacy --stdio SERVER_COMMAND [ARGS...]` or `--mode auto|legacy --url
    URL`, runs `run(server, mode)`, counts a raise as a failure, prints 'N passed, M failed' and
    exits 1 if anything failed (or nothing was checked)."""
    argv = sys.argv[1:]
    if len(argv) < 4 or argv[0] != "--mode" or argv[2] not in ("--stdio", "--url"):
        print(usage, file=sys.stderr)
        sys.exit(2)
    mode = argv[1]
    server = argv[3] if argv[2] == "--url" else StdioServerParameters(command=argv[3], args=argv[4:])
    try:
        asyncio.run(run(server, mode))
    except Exception:  # noqa: BLE001 - the session itself failed
        check(f"[{mode}] session ran to the end", False, traceback.format_exc())
    passed, failed = _counts["passed"], _counts["failed"]
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)
