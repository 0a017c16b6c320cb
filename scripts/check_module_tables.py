#!/usr/bin/env python3
"""Checks the module tables of the docs against the build's module graph.

CMake writes the graph at configure time (cmake/trainloop_module.cmake): one
file per group of modules, <graph-dir>/<group>.txt, a line per module in the
order of its CMakeLists.txt, `name: dep dep ...` (its DEPENDS). Each document
named below has one Markdown table whose header starts with `module` and has
a column whose header mentions `depend`; its rows must be the group's
modules, in the same order, each with exactly its DEPENDS:

    | module | job | may depend on |
    |---|---|---|
    | `common/` | ... | — |
    | `problem/` | ... | common, vocabulary, workload |

The dependency cell is a comma-separated list of module names (backquotes and
a trailing `/` allowed), or `—` for none; a remark in parentheses is ignored.
Exit 1 with one line per difference, so a module or a dependency added or
removed in the build without the docs (or the other way) fails ctest.
"""

import argparse
import re
import sys
from pathlib import Path

# (document, group): which table describes which CMakeLists.txt.
DEFAULT_TABLES = [
    ("docs/design.md", "engine"),
    ("engine/README.md", "engine"),
    ("mappers/README.md", "mappers"),
]

NONE_MARKS = {"", "—", "-", "–", "none"}


def read_graph(path):
    """[(module, [deps...]), ...] from one graph file, in the build's order."""
    modules = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, deps = line.partition(":")
        if not sep:
            raise ValueError(f"{path}:{number}: expected 'module: deps...', got {line!r}")
        modules.append((name.strip(), deps.split()))
    return modules


def _cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def find_table(text):
    """(line number of the first row, header cells, [(line number, cells), ...])
    of the first table whose header starts with `module` and has a column
    about dependencies; None when there is none."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].lstrip().startswith("|"):
            start = i
            while i < len(lines) and lines[i].lstrip().startswith("|"):
                i += 1
            block = lines[start:i]
            if len(block) < 2:
                continue
            header = _cells(block[0])
            if header and header[0].lower() == "module" and any("depend" in h.lower() for h in header):
                rows = [(start + 3 + k, _cells(row)) for k, row in enumerate(block[2:])]
                return header, rows
        else:
            i += 1
    return None


def _name(cell):
    return cell.strip().strip("`").strip().rstrip("/")


def parse_deps(cell):
    """The module names of a dependency cell, or raise ValueError."""
    cell = re.sub(r"\([^)]*\)", "", cell).strip()
    if cell.lower() in NONE_MARKS:
        return []
    names = []
    for part in cell.split(","):
        name = _name(part)
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"{part.strip()!r} is not a module name (list the modules, comma-separated, or '—')")
        names.append(name)
    return names


def check_document(doc_path, doc_text, group, graph, cmake_file):
    """Differences between a document's module table and the graph, one message each."""
    found = find_table(doc_text)
    if found is None:
        return [f"{doc_path}: no module table (a Markdown table whose header starts with 'module' "
                f"and has a 'depends on' column) for {cmake_file}"]
    header, rows = found
    deps_column = next(k for k, h in enumerate(header) if "depend" in h.lower())
    built = dict(graph)
    problems = []
    documented = []
    for number, cells in rows:
        if len(cells) <= deps_column:
            problems.append(f"{doc_path}:{number}: the row has {len(cells)} cells, "
                            f"the header {len(header)}")
            continue
        name = _name(cells[0])
        documented.append(name)
        if name not in built:
            problems.append(f"{doc_path}:{number}: module `{name}/` is not in {cmake_file} "
                            f"(its modules: {', '.join(m for m, _ in graph)})")
            continue
        try:
            deps = parse_deps(cells[deps_column])
        except ValueError as error:
            problems.append(f"{doc_path}:{number}: module `{name}/`: {error}")
            continue
        missing = [d for d in built[name] if d not in deps]
        extra = [d for d in deps if d not in built[name]]
        if missing or extra:
            said = []
            if missing:
                said.append(f"leaves out {', '.join(missing)}")
            if extra:
                said.append(f"adds {', '.join(extra)}")
            problems.append(f"{doc_path}:{number}: module `{name}/`: the table {' and '.join(said)}; "
                            f"its DEPENDS in {cmake_file} are: {', '.join(built[name]) or '—'}")
    for name, _ in graph:
        if name not in documented:
            problems.append(f"{doc_path}: no row for module `{name}/` of {cmake_file}")
    in_both = [m for m in documented if m in built]
    build_order = [m for m, _ in graph if m in documented]
    if not problems and in_both != build_order:
        problems.append(f"{doc_path}: the rows are not in {cmake_file}'s order: "
                        f"{', '.join(build_order)}")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--graph-dir", required=True,
                        help="the build's module_graph/ folder (written by CMake)")
    parser.add_argument("--root", default=".", help="the repository (default: .)")
    parser.add_argument("tables", nargs="*", metavar="DOC=GROUP",
                        help="documents and the group each describes "
                             "(default: " + ", ".join(f"{d}={g}" for d, g in DEFAULT_TABLES) + ")")
    args = parser.parse_args(argv)
    tables = [tuple(t.split("=", 1)) for t in args.tables] or DEFAULT_TABLES
    root = Path(args.root)
    problems = []
    for doc, group in tables:
        graph_file = Path(args.graph_dir) / f"{group}.txt"
        if not graph_file.is_file():
            problems.append(f"{graph_file}: no module graph for '{group}' (configure the build first)")
            continue
        graph = read_graph(graph_file)
        problems += check_document(doc, (root / doc).read_text(), group, graph,
                                   f"{group}/CMakeLists.txt")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} difference(s) between the module tables and the build: "
              "update the table (or the DEPENDS list) so they agree")
        return 1
    print(f"module tables agree with the build: {', '.join(d for d, _ in tables)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
