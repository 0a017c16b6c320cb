"""scripts/reproduce_resprop.py's stored runs, without running trainloop: the key a run
is stored under, a stored run returned instead of running, a missing one refused, and
that the stored runs of tests/golden/resprop render docs/reproductions/resprop.md
exactly."""

import io
import json
import os
import re
import subprocess
import sys
import tempfile
import unittest
import unittest.mock

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from reproduction_support import MACS_ONLY  # noqa: E402
from resprop import runs, scnn_sections  # noqa: E402


class StoredRuns(unittest.TestCase):
    def runner(self, stored=None):
        return runs.Runner("/opt/bin/trainloop", MACS_ONLY, io.StringIO(), "/tmp/work", stored)

    def test_a_key_names_the_work_directory_and_the_checkout_not_where_they_are(self):
        command = ["/opt/bin/trainloop", "train-cost", "--arch",
                   os.path.join(os.path.normpath(ROOT), "arch_specs", "gscn_4x64.yaml"),
                   "--sparsity", "/tmp/work/resprop_steady.yaml", "--batch", "64"]
        self.assertEqual(self.runner().key(command),
                         "train-cost --arch ROOT/arch_specs/gscn_4x64.yaml --sparsity "
                         "WORK/resprop_steady.yaml --batch 64")

    def test_a_stored_run_is_returned_without_running(self):
        runner = self.runner({"cartesian --workload resnet18": {"totals": {"fw": 1}}})
        # The binary does not exist: running it would fail.
        self.assertEqual(runner.run(["/opt/bin/trainloop", "cartesian", "--workload",
                                     "resnet18"]), {"totals": {"fw": 1}})

    def test_a_run_the_stored_runs_lack_is_an_error_naming_it(self):
        runner = self.runner({})
        with self.assertRaises(SystemExit) as exit_, \
                unittest.mock.patch("sys.stderr", new_callable=io.StringIO) as err:
            runner.run(["/opt/bin/trainloop", "cartesian", "--workload", "vgg16"])
        self.assertEqual(exit_.exception.code, 2)
        self.assertIn("lack `trainloop cartesian --workload vgg16`", err.getvalue())


class Replay(unittest.TestCase):
    """--replay: stored runs run again with a binary and compared with what is stored."""

    def runner(self, stored, prints):
        """A Runner whose binary is a stand-in that prints `prints` as its JSON."""
        scratch = tempfile.TemporaryDirectory()
        self.addCleanup(scratch.cleanup)
        binary = os.path.join(scratch.name, "trainloop")
        with open(binary, "w") as f:
            f.write("#!/bin/sh\ncat <<'EOF'\n%s\nEOF\n" % json.dumps(prints))
        os.chmod(binary, 0o755)
        return runs.Runner(binary, MACS_ONLY, io.StringIO(), "/tmp/work", stored,
                           re.compile("^cartesian "))

    def test_a_run_that_gives_what_is_stored_passes(self):
        run = {"cycles": 5, "totals": {"wu": {"cycles": 5}}}
        runner = self.runner({"cartesian --workload lenet": run}, dict(run, mappings=[1]))
        self.assertEqual(runner.run([runner.trainloop, "cartesian", "--workload", "lenet"]),
                         run)
        self.assertEqual((runner.replayed, runner.changed), (1, []))

    def test_a_run_that_moved_is_named_with_what_moved(self):
        stored = {"cartesian --workload lenet": {"cycles": 5},
                  "train-cost --workload lenet": {"cycles": 5}}
        runner = self.runner(stored, {"cycles": 6})
        runner.run([runner.trainloop, "cartesian", "--workload", "lenet"])
        runner.run([runner.trainloop, "train-cost", "--workload", "lenet"])  # not replayed
        self.assertEqual(runner.replayed, 1)
        self.assertEqual(runner.changed, [("cartesian --workload lenet", "cycles: 5 → 6")])

    def test_a_run_that_fails_now_is_named_with_its_message(self):
        runner = self.runner({"cartesian --workload lenet": {"cycles": 5}}, {})
        with open(runner.trainloop, "w") as f:
            f.write("#!/bin/sh\necho 'error: no conv layer' >&2\nexit 2\n")
        runner.run([runner.trainloop, "cartesian", "--workload", "lenet"])
        self.assertEqual(runner.changed, [("cartesian --workload lenet",
                                           "exit 2: error: no conv layer")])

    def test_replay_needs_report_only_and_a_pattern_that_finds_a_run(self):
        script = os.path.join(ROOT, "scripts", "reproduce_resprop.py")
        with tempfile.TemporaryDirectory() as scratch:
            alone = subprocess.run([sys.executable, script, "--replay", "x", "--work", scratch],
                                   capture_output=True, text=True)
            self.assertEqual(alone.returncode, 2)
            self.assertIn("--replay needs --report-only", alone.stderr)
            bad = subprocess.run([sys.executable, script, "--report-only", "--replay", "(",
                                  "--work", scratch], capture_output=True, text=True)
            self.assertEqual(bad.returncode, 2)
            self.assertIn("--replay: not a regular expression", bad.stderr)
        none = subprocess.run([sys.executable, script, "--report-only", "--replay", "^nothing ",
                               "--work", os.path.join(ROOT, "tests", "golden", "resprop"),
                               "--out", os.devnull], capture_output=True, text=True)
        self.assertEqual(none.returncode, 2, none.stderr)
        self.assertIn("--replay ^nothing  finds no stored run", none.stderr)


class ReportOnlyErrors(unittest.TestCase):
    """--report-only without usable stored runs: exit 2 naming the file (and the key)."""

    def report_only(self, work):
        return subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts", "reproduce_resprop.py"),
             "--report-only", "--work", work, "--out", os.path.join(work, "unused.md")],
            capture_output=True, text=True)

    def test_no_stored_runs_names_the_file(self):
        with tempfile.TemporaryDirectory() as work:
            done = self.report_only(work)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn(os.path.join(work, "results.json") + ": no stored runs", done.stderr)

    def test_stored_runs_without_a_key_name_it(self):
        with tempfile.TemporaryDirectory() as work:
            stored = {key: [] for key in runs.STORED_KEYS if key != "runs"}
            with open(os.path.join(work, "results.json"), "w") as f:
                json.dump(stored, f)
            done = self.report_only(work)
        self.assertEqual(done.returncode, 2, done.stderr)
        self.assertIn("the stored runs lack `runs`", done.stderr)


class ScnnPerConvolution(unittest.TestCase):
    """§8 per convolution: each convolution's GSCN-over-SCNN speed-up, the weight gradient's
    share of SCNN's cycles, and the share at which the two speed-ups give the thesis's."""

    def render(self, scnn_bw, scnn_wu):
        # GSCN takes 1 cycle in bw and 50 in wu: speed-ups scnn_bw× and scnn_wu/50×.
        def totals(bw, wu):
            return {"bw": {"slowest_pe_cycles": bw}, "wu": {"slowest_pe_cycles": wu}}
        cycles = {("resnet18", "scnn", "steady"): totals(scnn_bw, scnn_wu),
                  ("resnet18", "gscn", "steady"): totals(1.0, 50.0)}
        out = []
        scnn_sections.write_scnn_per_convolution(out.append, ["resnet18"], cycles)
        return out[0]

    def test_the_share_that_gives_the_thesiss_figure(self):
        # bw 13×, wu 2×: 1/6 = (1 − f)/13 + f/2 at f = (1/6 − 1/13) / (1/2 − 1/13) = 21.2 %.
        text = self.render(13.0, 100.0)
        self.assertIn("input gradient 13.00×, weight gradient 2.00×", text)
        self.assertIn("the weight gradient 88.5 % of SCNN's cycles", text)  # 100 / 113
        self.assertIn("the thesis's 6× would need 21.2 %", text)
        # With that share the two speed-ups give 6× over bw + wu.
        f = (1 / 6 - 1 / 13) / (1 / 2 - 1 / 13)
        self.assertAlmostEqual(1 / ((1 - f) / 13 + f / 2), 6.0)

    def test_no_share_when_the_thesiss_figure_is_outside_the_two(self):
        self.assertNotIn("would need", self.render(4.0, 100.0))  # bw 4×, wu 2×: never 6×


class TwinAttribution(unittest.TestCase):
    """§8's figure for ResNet-34 with the loss the thesis's figures ask of GSCN with ReSprop on
    ResNet-18, whose layer shapes it is built of."""

    @staticmethod
    def totals(cycles):
        return {"bw": {"slowest_pe_cycles": 0.0}, "wu": {"slowest_pe_cycles": cycles}}

    def render(self, scnn_resnet34):
        # ResNet-18: trainloop's gain 2 × the thesis's (8.7 / 1.32): the loss is 2.
        # ResNet-34: trainloop's gain 10, its §8 figure scnn_resnet34 / 100.
        thesis_gain = 8.7 / 1.32
        cycles = {("resnet18", "gscn_tiles", "dense"): self.totals(200 * thesis_gain),
                  ("resnet18", "gscn_tiles", "steady"): self.totals(100.0),
                  ("resnet34", "gscn_tiles", "dense"): self.totals(1000.0),
                  ("resnet34", "gscn_tiles", "steady"): self.totals(100.0),
                  ("resnet34", "scnn_64", "steady"): self.totals(scnn_resnet34)}
        out = []
        scnn_sections.write_twin_attribution(out.append, cycles, "resnet34", "resnet18")
        return out[0]

    def test_the_twins_loss_divides_the_figure(self):
        text = self.render(1100.0)  # 11× over SCNN, 5.5× with the loss: the thesis's figure
        self.assertIn("the loss above, 2.00×", text)
        self.assertIn("brings trainloop's 11.00× to 5.50×, 1.00 of the thesis's 5.5× "
                      "(within ±20 %)", text)

    def test_a_figure_the_loss_does_not_bring_in_is_said_to_be_outside(self):
        text = self.render(2000.0)  # 20×, 10× with the loss: 1.82 of 5.5×
        self.assertIn("to 10.00×, 1.82 of the thesis's 5.5× (**outside ±20 %**)", text)


class RenderedDocument(unittest.TestCase):
    def test_the_document_is_what_the_stored_runs_render(self):
        # A document edited by hand, or left behind its report code, differs here; and
        # the report code renders a complete set of runs without error.
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "resprop.md")
            done = subprocess.run(
                [sys.executable, os.path.join(ROOT, "scripts", "reproduce_resprop.py"),
                 "--report-only", "--work", os.path.join(ROOT, "tests", "golden", "resprop"),
                 "--out", out], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out) as f:
                rendered = f.read()
        with open(os.path.join(ROOT, "docs", "reproductions", "resprop.md")) as f:
            document = f.read()
        self.assertEqual(rendered, document,
                         "render it again: scripts/reproduce_resprop.py --report-only --work "
                         "tests/golden/resprop")


if __name__ == "__main__":
    unittest.main()
