"""scripts/check_module_tables.py: a module table that agrees with the build passes; a
module or a dependency added or removed on one side only, rows out of the build's order,
or a dependency cell that is not a list of modules fail, each named."""

import contextlib
import io
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
from check_module_tables import check_document, main, parse_deps, read_graph  # noqa: E402

GRAPH = "# engine/CMakeLists.txt's modules\ncommon: \nvocabulary: common\nproblem: common vocabulary\n"

TABLE = """# Modules

Some text.

| module | job | may depend on |
|---|---|---|
| `common/` | errors | — |
| `vocabulary/` | words | common |
| `problem/` | phase problems | common, vocabulary |

More text.
"""


class CheckModuleTables(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = Path(self.dir.name)
        (self.root / "graph").mkdir()
        (self.root / "graph" / "engine.txt").write_text(GRAPH)
        self.graph = read_graph(self.root / "graph" / "engine.txt")

    def tearDown(self):
        self.dir.cleanup()

    def check(self, table):
        return check_document("doc.md", table, "engine", self.graph, "engine/CMakeLists.txt")

    def test_graph_file(self):
        self.assertEqual(self.graph, [("common", []), ("vocabulary", ["common"]),
                                      ("problem", ["common", "vocabulary"])])

    def test_agreeing_table_passes(self):
        self.assertEqual(self.check(TABLE), [])

    def test_dependency_cells(self):
        self.assertEqual(parse_deps("—"), [])
        self.assertEqual(parse_deps("common (it stores plain records)"), ["common"])
        self.assertEqual(parse_deps("`common/`, vocabulary"), ["common", "vocabulary"])
        with self.assertRaises(ValueError):
            parse_deps("everything above")

    def test_dependency_missing_from_the_table_fails(self):
        problems = self.check(TABLE.replace("| common, vocabulary |", "| common |"))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("doc.md:9: module `problem/`: the table leaves out vocabulary", problems[0])

    def test_dependency_the_build_does_not_have_fails(self):
        problems = self.check(TABLE.replace("| words | common |", "| words | common, problem |"))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("module `vocabulary/`: the table adds problem", problems[0])

    def test_module_missing_from_the_table_fails(self):
        problems = self.check(TABLE.replace("| `vocabulary/` | words | common |\n", ""))
        self.assertEqual(problems, ["doc.md: no row for module `vocabulary/` of engine/CMakeLists.txt"])

    def test_module_the_build_does_not_have_fails(self):
        problems = self.check(TABLE.replace("More text.", "").rstrip() + "\n| `bounds/` | bounds | problem |\n")
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("module `bounds/` is not in engine/CMakeLists.txt", problems[0])

    def test_rows_out_of_order_fail(self):
        rows = TABLE.splitlines()
        rows[7], rows[8] = rows[8], rows[7]
        problems = self.check("\n".join(rows))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("not in engine/CMakeLists.txt's order", problems[0])

    def test_prose_in_the_dependency_column_fails(self):
        problems = self.check(TABLE.replace("| common, vocabulary |", "| everything above |"))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("'everything above' is not a module name", problems[0])

    def test_document_without_a_table_fails(self):
        problems = self.check("# No table here\n")
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("doc.md: no module table", problems[0])

    def test_main_exit_status(self):
        (self.root / "doc.md").write_text(TABLE)
        args = ["--graph-dir", str(self.root / "graph"), "--root", str(self.root), "doc.md=engine"]
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(main(args), 0)
        # The build gains a module the document does not have.
        with open(self.root / "graph" / "engine.txt", "a") as graph:
            graph.write("bounds: problem\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(main(args), 1)
        self.assertIn("no row for module `bounds/`", out.getvalue())
        # A group the build has no graph for.
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(main(["--graph-dir", str(self.root / "graph"), "--root",
                                   str(self.root), "doc.md=mappers"]), 1)


if __name__ == "__main__":
    unittest.main()
