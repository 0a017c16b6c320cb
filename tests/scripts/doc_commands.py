"""Runs the commands a Markdown page shows, so the page cannot rot.

    doc_commands.py PAGE.md --trainloop BINARY [--source DIR] [--keep]
    doc_commands.py --links-only [--index INDEX.md] PAGE.md...

Every relative link of the page, `[text](path)` or `[text](path#anchor)`, must
name a file or folder that exists (relative to the page); `--links-only` checks
only that, for pages that show no commands. `--index` checks that INDEX.md links
every Markdown page in its folder and below.

A page marks what is tested with HTML comments (invisible when rendered), each
applying to the fenced block right after it:

    <!-- doc-test: file PATH -->       the block is written to PATH
    <!-- doc-test: append PATH -->     the block is appended to PATH
    <!-- doc-test: run -->             the block runs in bash (-e -o pipefail); it must exit 0
    <!-- doc-test: run exit=2 -->      ... or exit with this code
    <!-- doc-test: output -->          the block is (trimmed) output of the last run: each of
                                       its lines must appear there, in order, as a whole line
                                       (trailing spaces aside); a line ending in `…` matches a
                                       line that begins with what comes before it; `...`
                                       lines stand for lines left out
    <!-- doc-test: networks -->        the block's backticked names are exactly the first
                                       column of `trainloop workload list`

and one that stands alone:

    <!-- doc-test: same-as PATH SHIPPED -->   PATH (written by the page) equals SHIPPED in
                                       the source tree, but for `component_library:` lines
                                       (the two sit in different folders) and SHIPPED's
                                       leading comment lines

Everything runs in a fresh temporary directory that looks like the repository's
root: `build/trainloop` is the binary under test, and `arch_specs/`,
`workloads/` and `examples/` are the source tree's. Exit 0 when every check
holds, 1 naming the first that does not.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

DIRECTIVE = re.compile(r"^<!--\s*doc-test:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(```|~~~)")


class Failure(Exception):
    pass


def parse(page):
    """The page's directives, in order: (line number, words, block text or None)."""
    with open(page) as f:
        lines = f.read().split("\n")
    steps = []
    i = 0
    while i < len(lines):
        match = DIRECTIVE.match(lines[i])
        if not match:
            i += 1
            continue
        words = match.group(1).split()
        if not words:
            raise Failure(f"{page}:{i + 1}: an empty doc-test directive")
        if words[0] == "same-as":
            steps.append((i + 1, words, None))
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or not FENCE.match(lines[j]):
            raise Failure(f"{page}:{i + 1}: `doc-test: {match.group(1)}` is not followed by a "
                          "fenced block")
        fence = FENCE.match(lines[j]).group(1)
        k = j + 1
        while k < len(lines) and not lines[k].startswith(fence):
            k += 1
        if k >= len(lines):
            raise Failure(f"{page}:{j + 1}: the fenced block never closes")
        steps.append((i + 1, words, "\n".join(lines[j + 1:k]) + "\n"))
        i = k + 1
    return steps


LINK = re.compile(r"\]\(([^)\s]+)\)")


def check_links(page):
    """Every relative link of the page names an existing file or folder."""
    with open(page) as f:
        text = f.read()
    broken = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            continue
        path = target.split("#", 1)[0]
        if not os.path.exists(os.path.join(os.path.dirname(page), path)):
            broken.append(target)
    if broken:
        raise Failure(f"{page}: links to nothing: {', '.join(broken)}")


def check_index(index):
    """The index links every Markdown page of its folder and its subfolders."""
    with open(index) as f:
        linked = {os.path.normpath(os.path.join(os.path.dirname(index), t.split("#", 1)[0]))
                  for t in LINK.findall(f.read())}
    folder = os.path.dirname(index)
    unlisted = []
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.normpath(os.path.join(root, name))
            if name.endswith(".md") and path != os.path.normpath(index) and path not in linked:
                unlisted.append(os.path.relpath(path, folder))
    if unlisted:
        raise Failure(f"{index}: no link to {', '.join(sorted(unlisted))}")


def check_output(where, expected, output):
    got = [line.rstrip() for line in output.split("\n")]
    position = 0
    for line in expected.split("\n"):
        line = line.rstrip()
        if not line or line.strip() == "...":
            continue
        if line.endswith("…"):
            prefix = line[:-1].rstrip()
            found = [n for n in range(position, len(got)) if got[n].startswith(prefix)]
        else:
            found = [n for n in range(position, len(got)) if got[n] == line]
        if not found:
            raise Failure(f"{where}: the page shows a line the command no longer prints "
                          f"(or not at this place):\n  {line}\n--- the command printed:\n{output}")
        position = found[0] + 1


def strip_for_comparison(text, leading_comments):
    lines = text.split("\n")
    if leading_comments:
        while lines and (lines[0].startswith("#") or not lines[0].strip()):
            lines.pop(0)
    return [line for line in lines if not line.startswith("component_library:")]


def run(page, binary, source, work):
    os.makedirs(os.path.join(work, "build"))
    os.symlink(os.path.abspath(binary), os.path.join(work, "build", "trainloop"))
    for folder in ("arch_specs", "workloads", "examples"):
        os.symlink(os.path.join(source, folder), os.path.join(work, folder))
    env = dict(os.environ, TRAINLOOP_DATA_DIR=source, MPLCONFIGDIR=os.path.join(work, ".mpl"))
    output = None
    runs = 0
    for line, words, block in parse(page):
        where = f"{page}:{line}"
        kind = words[0]
        if kind in ("file", "append"):
            path = os.path.join(work, words[1])
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w" if kind == "file" else "a") as f:
                f.write(block)
        elif kind == "run":
            expected_exit = 0
            for word in words[1:]:
                if word.startswith("exit="):
                    expected_exit = int(word[len("exit="):])
            print(f"== {where}\n{block}", flush=True)
            result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block], cwd=work,
                                    env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, timeout=300)
            output = result.stdout
            print(output, flush=True)
            runs += 1
            if result.returncode != expected_exit:
                raise Failure(f"{where}: exit code {result.returncode}, the page expects "
                              f"{expected_exit}")
        elif kind == "output":
            if output is None:
                raise Failure(f"{where}: an output block before any run block")
            check_output(where, block, output)
        elif kind == "networks":
            listed = subprocess.run([os.path.join(work, "build", "trainloop"), "workload", "list"],
                                    cwd=work, env=env, capture_output=True, text=True, check=True)
            shipped = {row.split()[0] for row in listed.stdout.splitlines() if row.strip()}
            shown = set(re.findall(r"`([a-z0-9_]+)`", block))
            if shown != shipped:
                raise Failure(f"{where}: the page's networks differ from `trainloop workload "
                              f"list`: missing {sorted(shipped - shown)}, unknown "
                              f"{sorted(shown - shipped)}")
        elif kind == "same-as":
            written, shipped = words[1], words[2]
            with open(os.path.join(work, written)) as f:
                mine = strip_for_comparison(f.read(), False)
            with open(os.path.join(source, shipped)) as f:
                theirs = strip_for_comparison(f.read(), True)
            if mine != theirs:
                diff = [f"  page: {a!r}\n  file: {b!r}" for a, b in zip(mine, theirs) if a != b]
                raise Failure(f"{where}: {written} as the page writes it differs from {shipped} "
                              f"(first difference:\n{diff[0] if diff else '  in length'})")
        else:
            raise Failure(f"{where}: unknown doc-test directive `{kind}`")
    if runs == 0:
        raise Failure(f"{page}: no `doc-test: run` block: nothing was tested")
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="+")
    parser.add_argument("--trainloop", help="the binary under test")
    parser.add_argument("--links-only", action="store_true",
                        help="check the pages' relative links only")
    parser.add_argument("--index", help="an index page that must link every page beside and below it")
    parser.add_argument("--source", default=os.path.normpath(
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")))
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    try:
        for page in args.pages:
            check_links(os.path.abspath(page))
        if args.index:
            check_index(os.path.abspath(args.index))
        if args.links_only:
            print(f"{len(args.pages)} pages: every relative link resolves")
            return
    except Failure as failure:
        print(f"FAIL {failure}", file=sys.stderr)
        sys.exit(1)
    if len(args.pages) != 1 or not args.trainloop:
        parser.error("running a page's commands takes one page and --trainloop")
    page = args.pages[0]
    work = tempfile.mkdtemp(prefix="doc_commands_")
    try:
        runs = run(os.path.abspath(page), args.trainloop, os.path.abspath(args.source), work)
        print(f"{page}: {runs} command blocks ran as the page shows")
    except Failure as failure:
        print(f"FAIL {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
