#!/usr/bin/env python3
"""Runs the malformed-input corpus (cases/manifest.json, made by generate.py).

    run_corpus.py TRAINLOOP_BINARY [--kind PREFIX] [--timeout SECONDS] [--jobs N]

For every case (whose name starts with PREFIX): copies its files to a fresh
directory, runs the command, and asserts that trainloop
  - ends within the time bound,
  - exits with the expected code (2: bad input),
  - prints an error naming the expected file, line ("file:LINE") and key,
    with the expected texts and without the forbidden ones (e.g. lines of a
    file that must not be echoed), in at most 40 lines,
  - leaves no sanitizer report (ASan, UBSan, LSan, TSan).
Exit status 0 when every case passes; the failures are listed otherwise.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CASES = HERE / "cases"
ROOT = HERE.parent.parent
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer",
                   "WARNING: ThreadSanitizer", "ERROR: ThreadSanitizer")
MAX_MESSAGE_LINES = 40


def prepare(case: dict, work: Path) -> tuple[Path, Path]:
    cases = work / "cases"
    cases.mkdir()
    os.symlink(CASES / "lib", cases / "lib")
    case_dir = cases / case["dir"]
    # A case with no files of its own (command-line cases) has no directory
    # in a clone: git keeps no empty directories.
    if (CASES / case["dir"]).is_dir():
        shutil.copytree(CASES / case["dir"], case_dir)
    else:
        case_dir.mkdir()
    tmp = work / "tmp"
    tmp.mkdir()
    for action in case.get("setup", []):
        kind, _, rest = action.partition(":")
        base = tmp if kind.endswith("-tmp") else case_dir
        if kind.startswith("fifo"):
            os.mkfifo(base / rest)
        elif kind.startswith("symlink"):
            name, _, target = rest.partition(":")
            os.symlink(target, base / name)
        else:
            raise ValueError(f"unknown setup action {action}")
    return case_dir, tmp


def check(case: dict, code: int | None, out: str, err: str, seconds: float,
          timeout: float) -> list[str]:
    problems = []
    expect = case["expect"]
    text = err + out
    if code is None:
        return [f"did not finish within {timeout:g} s"]
    for mark in SANITIZER_MARKS:
        if mark in text:
            problems.append(f"sanitizer report: {mark}")
    if code != expect.get("exit", 2):
        problems.append(f"exit code {code}, expected {expect.get('exit', 2)}")
    if "error" not in text:
        problems.append("no error message")
    where = expect.get("file")
    if where:
        line = expect.get("line")
        needle = f"{where}:{line}:" if line else where
        if needle not in text:
            problems.append(f"the message does not name `{needle}`")
    key = expect.get("key")
    if key and key not in text:
        problems.append(f"the message does not name the key `{key}`")
    for wanted in expect.get("contains", []):
        if wanted not in text:
            problems.append(f"the message lacks `{wanted}`")
    for unwanted in expect.get("absent", []):
        if unwanted in text:
            problems.append(f"the message holds `{unwanted}`")
    if len(err.splitlines()) > MAX_MESSAGE_LINES:
        problems.append(f"the message has {len(err.splitlines())} lines")
    return problems


def run_case(binary: str, case: dict, timeout: float) -> tuple[dict, list[str], str, float]:
    with tempfile.TemporaryDirectory(prefix="trainloop-corpus-") as work:
        case_dir, tmp = prepare(case, Path(work))
        cmd = [binary] + [a.replace("{case}", str(case_dir)).replace("{tmp}", str(tmp))
                          .replace("{data}", str(ROOT)) for a in case["cmd"]]
        start = time.monotonic()
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=timeout, stdin=subprocess.DEVNULL)
            code, out, err = done.returncode, done.stdout, done.stderr
        except subprocess.TimeoutExpired as e:
            code, out, err = None, e.stdout or b"", e.stderr or b""
        seconds = time.monotonic() - start
        out_text = out.decode("utf-8", "replace")
        err_text = err.decode("utf-8", "replace")
        problems = check(case, code, out_text, err_text, seconds, timeout)
        detail = (f"  $ {' '.join(cmd)}\n  exit {code} after {seconds:.2f} s\n" +
                  "".join(f"  | {l}\n" for l in (err_text + out_text).splitlines()[:12]))
        return case, problems, detail, seconds


def main() -> int:
    global CASES
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--cases", type=Path, default=CASES,
                        help="the corpus generate.py wrote (default tests/malformed/cases)")
    parser.add_argument("--kind", default="", help="only cases whose name starts with this")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per case")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    CASES = args.cases.resolve()
    cases = json.loads((CASES / "manifest.json").read_text())
    cases = [c for c in cases if c["name"].startswith(args.kind)]
    if not cases:
        print(f"no cases match `{args.kind}`")
        return 1
    failures = []
    slowest = (0.0, "")
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for case, problems, detail, seconds in pool.map(
                lambda c: run_case(args.binary, c, args.timeout), cases):
            slowest = max(slowest, (seconds, case["name"]))
            if problems:
                failures.append((case, problems, detail))
    for case, problems, detail in failures:
        print(f"FAIL {case['name']}: {'; '.join(problems)}\n{detail}")
    print(f"{len(cases) - len(failures)} of {len(cases)} cases passed "
          f"(slowest {slowest[0]:.2f} s: {slowest[1]})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
