"""scripts/reproduce_eager_pruning.py saves after each network and --resume runs only
what an interrupted run left out, with a stand-in for the trainloop binary that logs
its commands and prints the JSON fields the script reads."""

import argparse
import json
import os
import stat
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
from eager_pruning import measures, paper, rc_sections, readings, runs  # noqa: E402
from reproduction_support import ROOT, Search, TargetSummary  # noqa: E402

FAKE_TRAINLOOP = """import json, os, sys
with open(os.environ["FAKE_TRAINLOOP_LOG"], "a") as log:
    log.write(" ".join(sys.argv[1:]) + "\\n")
print(json.dumps({"macs_removed_fraction": float(os.environ.get("FAKE_RC", "0.25")),
                  "totals": {}}))
"""


class Resume(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        root = self.directory.name
        self.log = os.path.join(root, "calls.log")
        os.environ["FAKE_TRAINLOOP_LOG"] = self.log
        self.binary = os.path.join(root, "trainloop")
        with open(self.binary, "w") as f:
            # This interpreter, not `env python3`: where a version manager's shim
            # (pyenv's is a bash script) stands first on PATH, it runs before every
            # one of the stand-in's thousands of calls: 183 s for these tests, not 35 s.
            f.write(f"#!{sys.executable}\n" + FAKE_TRAINLOOP)
        os.chmod(self.binary, os.stat(self.binary).st_mode | stat.S_IEXEC)
        self.work = os.path.join(root, "work")
        os.makedirs(self.work)
        self.results = os.path.join(self.work, "results.json")
        self.generator = runs.load_generator()
        # The model check has its own tests (test_reproduction_support); here the
        # working tree may hold a developer's changes.
        patcher = mock.patch.object(runs, "refuse_resume_if_model_changed")
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
        first = runs.run_everything(self.args(resume=False), self.generator, ["lenet"],
                                    self.results)
        self.assertEqual(first["networks"], ["lenet"])
        lenet_calls = len(self.calls_for("lenet"))
        self.assertGreater(lenet_calls, 0)
        stored = runs.load_results(self.results)
        self.assertEqual(stored["done"], ["lenet"], "saved after the network")

        second = runs.run_everything(self.args(resume=True), self.generator,
                                     ["lenet", "resnet32_cifar"], self.results)
        self.assertEqual(second["networks"], ["lenet", "resnet32_cifar"])
        self.assertEqual(len(self.calls_for("lenet")), lenet_calls, "LeNet not run again")
        self.assertEqual(len(self.calls_for("resnet32_cifar")), lenet_calls)
        self.assertIn(("resnet32_cifar", "shipped"), runs.load_results(self.results)["runs"])

    def test_the_positions_reading_runs_every_array_with_imperfect_windows(self):
        runs.run_everything(self.args(resume=False), self.generator, ["lenet"], self.results)
        windows = [line.split() for line in self.calls_for("lenet")
                   if "--imperfect-windows" in line]
        for words in windows:
            self.assertIn("--imperfect-factors", words)
        whole_runs = [words for words in windows if words[0] == "train-cost"]
        # EP's and CX's runs, FF's dense run, CX's kernel update, and each FF reading twice.
        self.assertEqual(len(whole_runs), 4 + 2 * len(readings.FF_READINGS))
        archs = {words[words.index("--arch") + 1] for words in whole_runs}
        self.assertEqual(archs, {"eager_pruning_2048", "eager_pruning_cx_baseline",
                                 "eager_pruning_ff_baseline"})
        # Fig. 20's iteration, dense and pruned, on EP's array and CX's.
        iterations = [words for words in windows if words[0] == "map"]
        self.assertEqual(len(iterations), 4)
        stored = runs.load_results(self.results)
        for key in ("shipped", "baseline", "flexflow", "baseline_wu"):
            self.assertIn(("lenet", key + readings.WINDOWS), stored["runs"])
        for arch in ("eager_pruning_2048", "eager_pruning_cx_baseline"):
            for spread in ("dense", "shipped"):
                self.assertIn(("lenet", arch + readings.WINDOWS, spread), stored["fig20"])

    def test_a_replay_runs_a_network_again_and_names_each_run_that_moved(self):
        runs.run_everything(self.args(resume=False), self.generator, ["lenet"], self.results)
        stored = runs.load_results(self.results)
        stored_runs = len(stored["runs"]) + len(stored["fig20"])
        calls = len(self.calls_for("lenet"))
        compared, changed = runs.replay_network(self.args(resume=False), self.generator, "lenet",
                                                stored)
        self.assertEqual((compared, changed), (stored_runs, []))
        self.assertEqual(len(self.calls_for("lenet")), 2 * calls, "every run ran again")
        with mock.patch.dict(os.environ, {"FAKE_RC": "0.5"}):
            compared, changed = runs.replay_network(self.args(resume=False), self.generator,
                                                    "lenet", stored)
        self.assertEqual(len(changed), compared)
        self.assertIn("lenet|shipped: macs_removed_fraction: 0.25 → 0.5", changed)

    def test_a_replay_whose_run_fails_exits_1_naming_it(self):
        runs.run_everything(self.args(resume=False), self.generator, ["lenet"], self.results)
        failing = os.path.join(self.directory.name, "failing")
        with open(failing, "w") as f:
            f.write("#!/bin/sh\necho '{\"error\": {\"message\": \"no such layer\"}}'\nexit 2\n")
        os.chmod(failing, 0o755)
        done = subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts", "reproduce_eager_pruning.py"),
             "--report-only", "--work", self.work, "--out", os.path.join(self.work, "x.md"),
             "--trainloop", failing, "--replay", "lenet"], capture_output=True, text=True)
        self.assertEqual(done.returncode, 1, done.stderr)
        self.assertIn("changed: a run failed:", done.stderr)
        self.assertIn("no such layer", done.stderr)

    def test_resuming_with_another_search_is_refused(self):
        runs.run_everything(self.args(resume=False), self.generator, ["lenet"], self.results)
        with self.assertRaises(SystemExit) as exit:
            runs.run_everything(self.args(resume=True, budget=600), self.generator,
                                ["lenet"], self.results)
        self.assertEqual(exit.exception.code, 2)

    def test_the_scnn_baseline_runs_each_reading_dense_and_pruned(self):
        fig20 = {}
        iterations, batch = self.generator.TABLE_5["lenet"][:2]
        with open(os.path.join(self.work, "commands.txt"), "w") as log:
            runs.run_scnn(self.args(resume=False), "lenet", iterations, batch, "profile.yaml",
                          fig20, log)
        calls = [line.split() for line in self.calls_for("lenet")
                 if line.startswith("cartesian ")]
        self.assertEqual(len(calls), 2 * len(readings.SCNN_READINGS))
        specs = {os.path.basename(words[words.index("--arch") + 1]) for words in calls}
        self.assertEqual(specs, {readings.SCNN_ARCH + ".yaml",
                                 readings.SCNN_ARCH + "_unbuffered.yaml"})
        with open(os.path.join(self.work, readings.SCNN_ARCH + "_unbuffered.yaml")) as f:
            self.assertIn("bank_stalls: unbuffered\n", f.read())
        pruned = [words for words in calls if "--sparsity" in words]
        self.assertEqual(len(pruned), len(readings.SCNN_READINGS))
        for words in pruned:
            self.assertEqual(words[words.index("--iteration") + 1], str(iterations))
        self.assertEqual(sum("--fc" in words for words in calls),
                         2 * sum(fc for _, fc, _, _ in readings.SCNN_READINGS))
        for key, _, _, _ in readings.SCNN_READINGS:
            for spread in ("dense", "shipped"):
                self.assertIn(("lenet", key, spread), fig20)


class StoredRuns(unittest.TestCase):
    """What a run's JSON keeps when stored: the document's inputs, not its mappings."""

    def test_a_sparse_map_keeps_its_totals_and_each_layer_phases_effectual_macs(self):
        result = {"arch": "eager_pruning_2048", "evaluations": 10,
                  "totals": {"step": {"macs": 8, "cycles": 2}},
                  "layers": [{"name": "conv1", "phases": {
                      "fw": {"cycles": 2, "effectual_macs": 3, "mapping": {"levels": []}}}}],
                  "mapspace": {"size": 1}}
        kept = runs.slim(result)
        self.assertEqual(kept, {"arch": "eager_pruning_2048", "evaluations": 10,
                                "totals": {"step": {"macs": 8, "cycles": 2}},
                                "layers": [{"phases": {"fw": {"effectual_macs": 3}}}]})
        self.assertEqual(runs.slim(kept), kept, "slimming stored runs again keeps them")

    def test_a_dense_map_or_a_train_cost_run_keeps_no_layers_or_samples(self):
        dense = {"totals": {"fw": {"macs": 1}}, "layers": [{"name": "a", "phases": {
            "fw": {"cycles": 1, "mapping": {}}}}]}
        self.assertEqual(runs.slim(dense), {"totals": {"fw": {"macs": 1}}})
        run = {"total_cycles": 5, "macs_removed_fraction": 0.4, "samples": [{"begin": 0}],
               "dense_step": {"cycles": 1}}
        self.assertEqual(runs.slim(run), {"total_cycles": 5, "macs_removed_fraction": 0.4})


    def test_a_cartesian_run_keeps_its_scalars_and_totals_only(self):
        # `trainloop cartesian` rows carry no per-phase layers (the SCNN baseline's runs).
        run = {"network": "lenet", "totals": {"fw": {"cycles": 7, "used_products": 9}},
               "layers": [{"layer": "conv1", "phase": "fw", "cycles": 7}],
               "config": {"pes": "2x2"}}
        self.assertEqual(runs.slim(run), {"network": "lenet",
                                          "totals": {"fw": {"cycles": 7, "used_products": 9}}})

    def test_the_hybrids_parts_add_on_one_designs_multipliers_or_overlap_on_two_arrays(self):
        # 100 iterations of 6 + 4 SCNN cycles at the paper's factor of 2, 200 MHz: 2.5 µs;
        # CX's kernel update over the run: 1 µs.
        run = {"totals": {"fw": {"cycles": 6}, "bw": {"cycles": 4}}}
        stored = {("lenet", "baseline_wu"): {"dense_total_cycles": 200,
                                             "dense_total_seconds": 1e-6}}
        scnn, cx = measures.hybrid_parts(run, stored, "lenet", 100)
        self.assertAlmostEqual(scnn, 100 * 10 / paper.SCNN_INPUT_ZEROS_FACTOR / 2e8)
        self.assertEqual(cx, 1e-6)
        self.assertAlmostEqual(measures.hybrid_seconds(run, stored, "lenet", 100, False), scnn + cx)
        self.assertAlmostEqual(measures.hybrid_seconds(run, stored, "lenet", 100, True), scnn)

    def test_scnn_speed_is_dense_macs_over_the_pes_over_the_cycles_times_the_factor(self):
        dense = {"totals": {"fw": {"used_products": 2048 * 10, "cycles": 40}}}
        pruned = {"totals": {"fw": {"used_products": 2048 * 4, "cycles": 16}}}
        self.assertAlmostEqual(measures.scnn_over_ideal(dense, dense, "fw"),
                               paper.SCNN_INPUT_ZEROS_FACTOR * 10 / 40)
        self.assertAlmostEqual(measures.scnn_over_ideal(pruned, dense, "fw"),
                               paper.SCNN_INPUT_ZEROS_FACTOR * 10 / 16)

    def test_the_lstms_filter_buffer_bound_is_the_performed_macs_over_128_weights(self):
        run = {"total_cycles": 10, "dense_total_cycles": 20, "total_macs": 128 * 50,
               "effectual_macs": 128 * 30}
        self.assertEqual(measures.filter_buffer_bound(run, dense=True), 50)
        self.assertEqual(measures.filter_buffer_bound(run, dense=False), 30)
        fast_buffer = dict(run, total_macs=128, effectual_macs=64)  # the run's cycles stand
        self.assertEqual(measures.filter_buffer_bound(fast_buffer, dense=True), 20)
        self.assertEqual(measures.filter_buffer_bound(fast_buffer, dense=False), 10)

    def test_no_stored_scnn_phase_is_faster_than_eq7s_utilization_allows(self):
        # EP §4.1, Eq. 7: SCNN performs every Cartesian product, so even with every multiplier
        # busy its dense speed over the ideal is at most used over issued products (times the
        # paper's factor); the Fig. 21 paragraph reads this bound off the stored runs.
        with open(os.path.join(ROOT, "tests", "golden", "eager_pruning",
                               "results.json")) as f:
            fig20 = json.load(f)["fig20"]
        dense = {k: v for k, v in fig20.items() if "|scnn" in k and k.endswith("|dense")}
        self.assertEqual(len(dense), 21)  # 7 CNNs × 3 readings
        for key, run in dense.items():
            for phase in ("fw", "bw", "wu"):
                with self.subTest(run=key, phase=phase):
                    bound = paper.SCNN_INPUT_ZEROS_FACTOR * measures.eq7_utilization(run, phase)
                    self.assertLessEqual(measures.scnn_over_ideal(run, run, phase),
                                         bound * (1 + 1e-9))


class PaperReadings(unittest.TestCase):
    """Table 5's RC under §3.2's hyperparameter rule and over the pruned layers' MACs."""

    def setUp(self):
        self.generator = runs.load_generator()

    def test_the_rule_prunes_a_fiftieth_of_the_weights_to_prune_every_hundredth_of_the_run(self):
        # §3.2; AlexNet's 2,332,704 conv weights at CR 2.61x: 1,438,948 to prune.
        self.assertEqual(self.generator.hyperparameter_rule(450_000, 2_332_704, 2.61),
                         (28_779, 4_500))
        self.assertEqual(self.generator.hyperparameter_rule(10_000, 25_500, 1.85), (235, 100))
        for net in self.generator.ORDER:
            iterations, _, _, _, cr, _ = self.generator.TABLE_5[net]
            weights = sum(w for _, w in self.generator.pruned_layers(net))
            points = self.generator.schedule(
                weights, *self.generator.hyperparameter_rule(iterations, weights, cr), cr, False)
            self.assertEqual(len(points) - 1, 50, net)
            self.assertEqual(points[-1][0], iterations // 2, "ends half-way: " + net)
            self.assertAlmostEqual(points[-1][1], 1 / cr, places=12)

    def test_at_once_is_one_step_to_the_cr_at_iteration_0(self):
        self.assertEqual(self.generator.schedule(25_500, 80, 200, 1.85, False, at_once=True),
                         [(0, 1 / 1.85)])

    def test_the_pruned_layers_network_drops_the_unpruned_mac_layers_and_what_reads_them(self):
        with tempfile.TemporaryDirectory() as work:
            with open(runs.pruned_layers_network(self.generator, "lenet", work)) as f:
                lenet = yaml.safe_load(f)
            self.assertEqual(lenet["network"], "lenet", "the profile's rule still applies")
            self.assertEqual([layer["name"] for layer in lenet["layers"]],
                             ["conv1", "pool1", "conv2", "pool2"])
            # NIN has no fully connected layer, the LSTM's every MAC layer is pruned.
            for net in ("nin", "lstm_timit"):
                with open(runs.pruned_layers_network(self.generator, net, work)) as f:
                    kept = yaml.safe_load(f)["layers"]
                with open(os.path.join(ROOT, "workloads", net + ".yaml")) as f:
                    self.assertEqual(kept, yaml.safe_load(f)["layers"], net)

    def test_each_reading_runs_its_own_profile(self):
        self.assertEqual(runs.reading_profile([]), "shipped")
        self.assertEqual(runs.reading_profile(["--hyperparameter-rule"]), "hyperparameter_rule")
        self.assertEqual(runs.reading_profile(["--at-once"]), "at_once")

    def render(self, at_once):
        """The section over made-up runs of LeNet: every reading removes 30 % of the MACs,
        the pruned layers hold 80 % of them, the bound is `at_once`."""
        names = ["shipped"] + [r[0] for r in readings.RC_READINGS + readings.RC_BOUNDS]
        stored = {("lenet", name): {"macs_removed_fraction": 0.3, "total_macs": 100.0}
                  for name in names}
        stored[("lenet", "pruned_macs")]["total_macs"] = 80.0
        stored[("lenet", "at_once")]["macs_removed_fraction"] = at_once
        out, targets = [], TargetSummary()
        rc_sections.write_rc_readings(out.append, ["lenet"], stored, self.generator, targets)
        return "\n".join(out), targets

    def test_a_figure_past_the_bound_is_said_to_count_the_pruned_layers_macs(self):
        text, targets = self.render(at_once=0.3748)  # below Table 5's 38.06 %
        self.assertIn("Table 5's 38.06 % is out of reach", text)
        self.assertIn("20.00 % of them are in layers EP does not prune", text)
        self.assertIn("they reach the CR only after the run", text)
        self.assertEqual(len(targets.alternatives[(paper.CLAIM_RC, "LeNet")]),
                         len(readings.RC_READINGS), "each reading, none of the bounds")
        text, _ = self.render(at_once=0.39)
        self.assertNotIn("out of reach", text)


class RenderedDocument(unittest.TestCase):
    def test_the_document_is_what_the_stored_runs_render(self):
        # A document edited by hand, or left behind its report code, differs here; and
        # the report code renders a complete set of runs without error.
        with tempfile.TemporaryDirectory() as scratch:
            out = os.path.join(scratch, "eager_pruning.md")
            done = subprocess.run(
                [sys.executable, os.path.join(ROOT, "scripts", "reproduce_eager_pruning.py"),
                 "--report-only", "--work", os.path.join(ROOT, "tests", "golden",
                                                         "eager_pruning"),
                 "--out", out], capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(out) as f:
                rendered = f.read()
        with open(os.path.join(ROOT, "docs", "reproductions", "eager_pruning.md")) as f:
            document = f.read()
        self.assertEqual(rendered, document,
                         "render it again: scripts/reproduce_eager_pruning.py --report-only "
                         "--work tests/golden/eager_pruning")


if __name__ == "__main__":
    unittest.main()
