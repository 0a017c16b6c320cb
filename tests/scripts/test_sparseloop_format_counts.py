"""tools/oracles/sparseloop_format_counts.py: our restatement of Sparseloop's per-rank
format counts gives every listed count of the sparse corpus exactly (this fails when the
corpus or the restatement changes: rerun `--all` and see what moved), and its leaf-rank
metadata units are not the nonzeros a tile stores (glb_rf_8x4_metadata/r006_fc_rle:
0.4 run lengths per nonzero). Needs python3-yaml; about 6 s."""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools", "oracles"))
import sparseloop_format_counts as counts  # noqa: E402

CORPUS = os.path.join(ROOT, "tests", "golden", "timeloop", "sparse_corpus")
R006 = "glb_rf_8x4_metadata/r006_fc_rle.yaml"


def run(argv):
    """main(argv)'s exit status and standard output."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = counts.main(argv)
    return status, out.getvalue()


class WholeCorpus(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.predictions = counts.predict_corpus(CORPUS)

    def test_every_listed_count_agrees(self):
        summary = counts.agreement(self.predictions)
        self.assertEqual(summary["disagreements"], [])
        self.assertEqual(summary["cases"], 125)
        self.assertEqual((summary["ranks_exact"], summary["ranks"]), (7338, 7338))
        self.assertEqual((summary["records_exact"], summary["records"]), (518, 518))
        self.assertEqual(summary["presence_checked"], 1312)

    def test_leaf_metadata_is_not_the_nonzeros(self):
        entries, summary = counts.leaf_metadata_vs_nonzeros(self.predictions)
        found = {(e["case"], e["level"], e["space"]): e for e in entries}
        dram = found[(R006, "DRAM", "Weights")]
        # 48 RLE ranks, the leaf is Sparseloop's "Rank 14": fibers of 2 coordinates, each
        # standing for 2 elements (the dummy ranks' subtile) instead of 1.
        self.assertEqual((dram["leaf_rank"], dram["leaf_format"], dram["leaf_fiber_shape"],
                          dram["leaf_subtile_shape"], dram["tile_shape"]),
                         (14, "rle", 2, 2, 16384))
        self.assertAlmostEqual(dram["leaf_metadata_units"], 655.36, places=3)
        self.assertAlmostEqual(dram["expected_nonzeros"], 1638.4, places=9)
        self.assertAlmostEqual(dram["ratio"], 0.4, places=6)
        # At confidence 1, as the corpus lists it: 656 run lengths for at most 1639 nonzeros.
        self.assertEqual((dram["leaf_metadata_capacity"], dram["max_nonzeros"]), (656, 1639))
        stored = self.predictions[R006][1][("DRAM", "Weights")]["format_capacity"]
        self.assertEqual(stored[-1], [656, 0])
        glb = found[(R006, "GlobalBuffer", "Weights")]
        self.assertAlmostEqual(glb["expected_nonzeros"], 102.4, places=9)
        self.assertAlmostEqual(glb["ratio"], 0.4, places=4)
        self.assertEqual(glb["relation"], "fewer")
        self.assertEqual((summary["entries"], summary["fewer"], summary["equal"],
                          summary["more"]), (131, 7, 10, 114))
        self.assertAlmostEqual(summary["fewer_ratio_range"][0], 0.4, places=6)
        self.assertAlmostEqual(summary["fewer_ratio_range"][1], 0.97, places=4)
        self.assertGreater(summary["more_ratio_range"][1], 280)


class CommandLine(unittest.TestCase):
    """--all's exit status and --json on a one-case corpus, and a disagreement."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        top = self.directory.name
        self.corpus = os.path.join(top, "sparse_corpus")
        arch_dir = os.path.join(self.corpus, "glb_rf_8x4_metadata")
        os.makedirs(arch_dir)
        for name in ("arch.yaml", "r006_fc_rle.yaml", "r006_fc_rle.json"):
            shutil.copy(os.path.join(CORPUS, "glb_rf_8x4_metadata", name), arch_dir)
        os.makedirs(os.path.join(top, "dense", "glb_rf_8x4"))
        shutil.copy(os.path.join(CORPUS, "..", "dense", "glb_rf_8x4", "r006_fc.json"),
                    os.path.join(top, "dense", "glb_rf_8x4"))
        self.stored = os.path.join(arch_dir, "r006_fc_rle.json")

    def tearDown(self):
        self.directory.cleanup()

    def test_agreement_exits_0_and_prints_json(self):
        status, out = run(["--all", self.corpus, "--leaf-metadata-vs-nonzeros", self.corpus,
                           "--json"])
        self.assertEqual(status, 0)
        result = json.loads(out)
        self.assertEqual(result["agreement"]["cases"], 1)
        self.assertEqual(result["agreement"]["disagreements"], [])
        self.assertEqual(result["leaf_metadata_vs_nonzeros"]["fewer"], 2)

    def test_a_changed_count_exits_1_naming_it(self):
        with open(self.stored) as f:
            stored = json.load(f)
        level = next(L for L in stored["levels"] if L["name"] == "DRAM")
        level["spaces"]["Weights"]["format_capacity"][-1] = [655, 0]
        with open(self.stored, "w") as f:
            json.dump(stored, f)
        status, out = run(["--all", self.corpus])
        self.assertEqual(status, 1)
        self.assertIn("DRAM Weights format_capacity metadata", out)
        self.assertIn("ours 656, corpus 655", out)
        status, out = run([os.path.join(os.path.dirname(self.stored), "r006_fc_rle.yaml")])
        self.assertEqual(status, 1)
        self.assertIn("DISAGREES format_capacity", out)


if __name__ == "__main__":
    unittest.main()
