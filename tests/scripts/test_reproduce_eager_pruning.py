"""scripts/reproduce_eager_pruning.py saves after each network and --resume runs only
what an interrupted run left out, with a stand-in for the trainloop binary that logs
its commands and prints the JSON fields the script reads."""

import argparse
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
import reproduce_eager_pruning as ep  # noqa: E402
from reproduction_support import Search  # noqa: E402

FAKE_TRAINLOOP = """#!/usr/bin/env python3
import json, os, sys
with open(os.environ["FAKE_TRAINLOOP_LOG"], "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
print(json.dumps({"macs_removed_fraction": 0.25, "totals": {}}))
"""


class Resume(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        root = self.directory.name
        self.log = os.path.join(root, "calls.log")
        os.environ["FAKE_TRAINLOOP_LOG"] = self.log
        self.binary = os.path.join(root, "trainloop")
        with open(self.binary, "w") as f:
            f.write(FAKE_TRAINLOOP)
        os.chmod(self.binary, os.stat(self.binary).st_mode | stat.S_IEXEC)
        self.work = os.path.join(root, "work")
        os.makedirs(self.work)
        self.results = os.path.join(self.work, "results.json")
        self.generator = ep.load_generator()
        # The model check has its own tests (test_reproduction_support); here the
        # working tree may hold a developer's changes.
        patcher = mock.patch.object(ep, "refuse_resume_if_model_changed")
        patcher.start()
        self.addCleanup(patcher.stop)

    def tearDown(self):
        self.directory.cleanup()

    def args(self, resume, budget=500):
        return argparse.Namespace(trainloop=self.binary, arch="eager_pruning_2048",
                                  baseline="eager_pruning_cx_baseline",
                                  flexflow="eager_pruning_ff_baseline", work=self.work,
                                  resume=resume, search=Search("anneal", budget, "latency"))

    def calls_for(self, network):
        with open(self.log) as f:
            return [line for line in f if "--workload %s " % network in line]

    def test_a_resumed_run_keeps_the_stored_networks_and_runs_the_rest(self):
        first = ep.run_everything(self.args(resume=False), self.generator, ["lenet"],
                                  self.results)
        self.assertEqual(first["networks"], ["lenet"])
        lenet_calls = len(self.calls_for("lenet"))
        self.assertGreater(lenet_calls, 0)
        stored = ep.load_results(self.results)
        self.assertEqual(stored["done"], ["lenet"], "saved after the network")

        second = ep.run_everything(self.args(resume=True), self.generator,
                                   ["lenet", "resnet32_cifar"], self.results)
        self.assertEqual(second["networks"], ["lenet", "resnet32_cifar"])
        self.assertEqual(len(self.calls_for("lenet")), lenet_calls, "LeNet not run again")
        self.assertEqual(len(self.calls_for("resnet32_cifar")), lenet_calls)
        self.assertIn(("resnet32_cifar", "shipped"), ep.load_results(self.results)["runs"])

    def test_resuming_with_another_search_is_refused(self):
        ep.run_everything(self.args(resume=False), self.generator, ["lenet"], self.results)
        with self.assertRaises(SystemExit) as exit:
            ep.run_everything(self.args(resume=True, budget=600), self.generator,
                              ["lenet"], self.results)
        self.assertEqual(exit.exception.code, 2)


class StoredRuns(unittest.TestCase):
    """What a run's JSON keeps when stored: the document's inputs, not its mappings."""

    def test_a_sparse_map_keeps_its_totals_and_each_layer_phases_effectual_macs(self):
        result = {"arch": "eager_pruning_2048", "evaluations": 10,
                  "totals": {"step": {"macs": 8, "cycles": 2}},
                  "layers": [{"name": "conv1", "phases": {
                      "fw": {"cycles": 2, "effectual_macs": 3, "mapping": {"levels": []}}}}],
                  "mapspace": {"size": 1}}
        kept = ep.slim(result)
        self.assertEqual(kept, {"arch": "eager_pruning_2048", "evaluations": 10,
                                "totals": {"step": {"macs": 8, "cycles": 2}},
                                "layers": [{"phases": {"fw": {"effectual_macs": 3}}}]})
        self.assertEqual(ep.slim(kept), kept, "slimming stored runs again keeps them")

    def test_a_dense_map_or_a_train_cost_run_keeps_no_layers_or_samples(self):
        dense = {"totals": {"fw": {"macs": 1}}, "layers": [{"name": "a", "phases": {
            "fw": {"cycles": 1, "mapping": {}}}}]}
        self.assertEqual(ep.slim(dense), {"totals": {"fw": {"macs": 1}}})
        run = {"total_cycles": 5, "macs_removed_fraction": 0.4, "samples": [{"begin": 0}],
               "dense_step": {"cycles": 1}}
        self.assertEqual(ep.slim(run), {"total_cycles": 5, "macs_removed_fraction": 0.4})


class RenderedDocument(unittest.TestCase):
    def test_the_document_is_what_the_stored_runs_render(self):
        # A document edited by hand, or left behind its report code, differs here; and
        # the report code renders a complete set of runs without error.
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "eager_pruning.md")
            done = subprocess.run(
                [sys.executable, os.path.join(ep.ROOT, "scripts", "reproduce_eager_pruning.py"),
                 "--report-only", "--work", os.path.join(ep.ROOT, "tests", "golden",
                                                         "eager_pruning"),
                 "--out", out], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out) as f:
                rendered = f.read()
        with open(os.path.join(ep.ROOT, "docs", "reproductions", "eager_pruning.md")) as f:
            document = f.read()
        self.assertEqual(rendered, document,
                         "render it again: scripts/reproduce_eager_pruning.py --report-only "
                         "--work tests/golden/eager_pruning")


if __name__ == "__main__":
    unittest.main()
