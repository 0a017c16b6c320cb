"""The stored runs of scripts/reproduce_*.py: an interrupted write keeps the earlier
runs, and a damaged file is a located error (exit 2), not a traceback; so are a missing
trainloop binary and an unknown network name."""

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
from reproduction_support import (  # noqa: E402
    ROOT, Search, TargetSummary, arch_with_dram_bandwidth, check_names, first_difference,
    model_files_changed,
    network_names, read_stored_runs, refuse_resume_if_model_changed, require_trainloop,
    ratio_text, scalars_and, shipped_networks, target_verdict, within_target,
    write_stored_runs)


class StoredRuns(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.directory.name, "results.json")

    def tearDown(self):
        self.directory.cleanup()

    def read_error(self, required=()):
        """The message and exit code of reading self.path, which must fail."""
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), self.assertRaises(SystemExit) as exit:
            read_stored_runs(self.path, "run it again", required)
        return stderr.getvalue(), exit.exception.code

    def test_what_is_written_is_read_back(self):
        runs = {"networks": {"alexnet": {"total_cycles": 12.5}}, "date": "2026-11-25"}
        write_stored_runs(self.path, runs)
        self.assertEqual(read_stored_runs(self.path, "run it again"), runs)
        self.assertEqual(os.listdir(self.directory.name), ["results.json"])

    def test_a_write_that_fails_keeps_the_earlier_runs(self):
        write_stored_runs(self.path, {"networks": {"alexnet": 1}})
        with self.assertRaises(TypeError):
            write_stored_runs(self.path, {"networks": {"alexnet": 1, "vgg16": object()}})
        self.assertEqual(read_stored_runs(self.path, "run it again"),
                         {"networks": {"alexnet": 1}})
        self.assertEqual(os.listdir(self.directory.name), ["results.json"])

    def test_a_missing_file_is_named_with_what_to_do(self):
        message, code = self.read_error()
        self.assertEqual(code, 2)
        self.assertIn(self.path, message)
        self.assertIn("no stored runs; run it again", message)

    def test_a_truncated_file_names_its_line_and_column(self):
        with open(self.path, "w") as f:
            f.write('{"networks": {\n  "alexnet": ')
        message, code = self.read_error()
        self.assertEqual(code, 2)
        self.assertIn("%s: the stored runs are not valid JSON (line 2, column 14" % self.path,
                      message)
        self.assertNotIn("Traceback", message)

    def test_json_that_is_not_an_object_is_refused(self):
        with open(self.path, "w") as f:
            json.dump([1, 2], f)
        message, code = self.read_error()
        self.assertEqual(code, 2)
        self.assertIn("not a JSON object", message)

    def test_runs_without_a_required_key_are_refused_naming_it(self):
        write_stored_runs(self.path, {"networks": {}})
        self.assertEqual(read_stored_runs(self.path, "run it again", ("networks",)),
                         {"networks": {}})
        message, code = self.read_error(("networks", "runs"))
        self.assertEqual(code, 2)
        self.assertIn("%s: the stored runs lack `runs`, which this script stores; run it again"
                      % self.path, message)


class ScalarsAnd(unittest.TestCase):
    def test_keeps_the_scalars_and_the_named_objects_only(self):
        result = {"total_cycles": 5, "arch": "gscn_4x64", "converged": True, "note": None,
                  "samples": [{"begin": 0}], "dense_step": {"cycles": 1},
                  "totals": {"wu": {"used_products": 3}}}
        self.assertEqual(scalars_and(result, ("totals", "absent")),
                         {"total_cycles": 5, "arch": "gscn_4x64", "converged": True,
                          "note": None, "totals": {"wu": {"used_products": 3}}})
        self.assertEqual(scalars_and(result), {"total_cycles": 5, "arch": "gscn_4x64",
                                               "converged": True, "note": None})


class FirstDifference(unittest.TestCase):
    """A stored run against the same command run again (the reproductions' --replay)."""

    stored = {"total_cycles": 120, "arch": "build/run_a/gscn_copy.yaml", "note": None,
              "converged": True, "totals": {"wu": {"cycles": 7.5, "used": 3}}}

    def replayed(self, **changes):
        run = json.loads(json.dumps(self.stored))
        run.update(changes)
        return run

    def test_the_same_run_elsewhere_is_the_same(self):
        # The work directory differs; the file a path names does not.
        self.assertIsNone(first_difference(self.stored, self.replayed(
            arch="/tmp/replay/gscn_copy.yaml")))

    def test_a_number_that_moved_is_named_with_both_values(self):
        moved = self.replayed(totals={"wu": {"cycles": 7.75, "used": 3}})
        self.assertEqual(first_difference(self.stored, moved), "totals.wu.cycles: 7.5 → 7.75")

    def test_a_sum_in_another_order_is_not_a_change(self):
        self.assertIsNone(first_difference({"x": 0.1 + 0.2 + 0.3}, {"x": 0.3 + 0.2 + 0.1}))
        self.assertIsNotNone(first_difference({"x": 1.0}, {"x": 1.0 + 1e-6}))
        self.assertIsNone(first_difference({"x": [{"m": 0.1 + 0.2 + 0.3}]},
                                           {"x": [{"m": 0.3 + 0.2 + 0.1}]}))

    def test_lists_are_compared_entry_by_entry(self):
        self.assertEqual(first_difference({"layers": [{"m": 1}, {"m": 2}]},
                                          {"layers": [{"m": 1}, {"m": 3}]}),
                         "layers.1.m: 2 → 3")
        self.assertEqual(first_difference({"layers": [1, 2]}, {"layers": [1]}),
                         "layers: 2 entries → 1")

    def test_another_file_a_missing_field_and_a_flag_are_changes(self):
        self.assertEqual(first_difference(self.stored, self.replayed(arch="/x/other.yaml")),
                         "arch: 'build/run_a/gscn_copy.yaml' → '/x/other.yaml'")
        fewer = self.replayed()
        del fewer["note"]
        self.assertEqual(first_difference(self.stored, fewer), "note: only in the stored run")
        self.assertEqual(first_difference(self.stored, self.replayed(converged=1)),
                         "converged: True → 1")


class Target(unittest.TestCase):
    def test_within_twenty_per_cent_either_way_and_as_printed(self):
        self.assertTrue(within_target(0.8) and within_target(1.2) and within_target(1.0))
        self.assertFalse(within_target(0.79) or within_target(1.21))
        self.assertEqual(target_verdict(1.1), "within ±20 %")
        self.assertEqual(target_verdict(0.5), "**outside ±20 %**")

    def test_a_ratio_that_two_decimals_round_across_the_edge_keeps_its_third(self):
        # 0.7956 to two decimals is 0.80, which would read as within the target.
        self.assertEqual(ratio_text(0.7956), "0.796")
        self.assertEqual(ratio_text(1.2049), "1.205")
        self.assertEqual(ratio_text(0.8012), "0.80")
        self.assertEqual(ratio_text(0.66), "0.66")
        self.assertEqual(target_verdict(0.7956), "**outside ±20 %**: 0.796 unrounded")
        self.assertEqual(target_verdict(0.8012), "within ±20 %")
        summary = TargetSummary()
        summary.add("claim", "case", "2.25×", "1.79×", 0.7956)
        summary.alternative("claim", "case", "a reading", 1.2049)
        table = "\n".join(summary.lines("the sections"))
        self.assertIn("| 0.796 | **outside ±20 %** | a reading: 1.205 |", table)


class ModelChanges(unittest.TestCase):
    """--resume refuses runs made with another model: the engine's files and the report's
    own inputs, changed since the runs' commit, committed or not."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.root = self.directory.name
        self.write("engine/evaluation.cpp", "one")
        self.write("arch_specs/mine.yaml", "one")
        self.write("arch_specs/other.yaml", "one")
        self.write("docs/notes.md", "one")
        self.git("init", "-q")
        self.git("add", "-A")
        self.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "runs")
        self.commit = self.git("rev-parse", "HEAD").strip()

    def tearDown(self):
        self.directory.cleanup()

    def write(self, path, text):
        os.makedirs(os.path.dirname(os.path.join(self.root, path)), exist_ok=True)
        with open(os.path.join(self.root, path), "w") as f:
            f.write(text)

    def git(self, *args):
        return subprocess.run(["git", "-C", self.root] + list(args), check=True,
                               capture_output=True, text=True).stdout

    def changed(self):
        return model_files_changed(self.commit, ["arch_specs/mine.yaml"], root=self.root)

    def test_nothing_changed(self):
        self.assertEqual(self.changed(), [])

    def test_the_engine_and_the_reports_inputs_count_other_files_do_not(self):
        self.write("engine/evaluation.cpp", "two")
        self.write("arch_specs/mine.yaml", "two")
        self.write("arch_specs/other.yaml", "two")
        self.write("docs/notes.md", "two")
        self.assertEqual(sorted(self.changed()),
                         ["arch_specs/mine.yaml", "engine/evaluation.cpp"])

    def test_a_committed_change_counts_too(self):
        self.write("engine/evaluation.cpp", "two")
        self.git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qam", "later")
        self.assertEqual(self.changed(), ["engine/evaluation.cpp"])

    def test_an_unknown_commit_cannot_be_checked(self):
        self.assertIsNone(model_files_changed("0" * 40, [], root=self.root))

    def test_resuming_runs_of_another_model_is_refused_naming_the_files(self):
        refuse_resume_if_model_changed("results.json", self.commit, [], root=self.root)
        self.write("engine/evaluation.cpp", "two")
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), self.assertRaises(SystemExit) as exit:
            refuse_resume_if_model_changed("results.json", self.commit, [], root=self.root)
        self.assertEqual(exit.exception.code, 2)
        self.assertIn("results.json: the stored runs were made at commit %s, and 1 file(s) of "
                      "the model changed since (engine/evaluation.cpp)" % self.commit,
                      stderr.getvalue())




class RequireTrainloop(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def refused(self, path):
        stderr = io.StringIO()
        with self.assertRaises(SystemExit) as exit, contextlib.redirect_stderr(stderr):
            require_trainloop(path)
        self.assertEqual(exit.exception.code, 2)
        self.assertIn(path, stderr.getvalue())

    def test_a_missing_binary_is_an_error_naming_it(self):
        self.refused(os.path.join(self.directory.name, "trainloop"))

    def test_a_file_that_does_not_run_is_refused(self):
        path = os.path.join(self.directory.name, "trainloop")
        with open(path, "w") as f:
            f.write("not a program\n")
        os.chmod(path, 0o644)
        self.refused(path)

    def test_an_executable_passes(self):
        path = os.path.join(self.directory.name, "trainloop")
        with open(path, "w") as f:
            f.write("#!/bin/sh\n")
        os.chmod(path, 0o755)
        require_trainloop(path)

    def test_runs_resolve_shipped_names_in_this_checkout(self):
        # A binary built from another tree would otherwise read that tree's arch_specs/.
        path = os.path.join(self.directory.name, "trainloop")
        with open(path, "w") as f:
            f.write("#!/bin/sh\necho \"$TRAINLOOP_DATA_DIR\"\n")
        os.chmod(path, 0o755)
        with mock.patch.dict(os.environ, {"TRAINLOOP_DATA_DIR": self.directory.name}):
            require_trainloop(path)
            printed = subprocess.run([path], capture_output=True, text=True).stdout.strip()
        self.assertEqual(os.path.realpath(printed), os.path.realpath(ROOT))


class DramBandwidthVariants(unittest.TestCase):
    """The assumption rows' specs: the shipped one with a DRAM limit added, nothing else."""

    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.addCleanup(self.directory.cleanup)

    def dram_block(self, path):
        with open(path) as f:
            text = f.read()
        start = text.index("  - name: DRAM\n")
        end = text.index("  - name:", start + 1)
        return text, text[start:end]

    def test_each_way(self):
        path = arch_with_dram_bandwidth("gscn_4x64", 32, self.directory.name)
        self.assertTrue(path.endswith("gscn_4x64_dram32.yaml"))
        text, dram = self.dram_block(path)
        self.assertIn("    read_bandwidth: 32\n    write_bandwidth: 32\n", dram)
        self.assertNotIn("shared_bandwidth", text)
        self.assertIn("architecture: gscn_4x64_dram32\n", text)

    def test_shared(self):
        path = arch_with_dram_bandwidth("gscn_4x64", 16, self.directory.name, shared=True)
        self.assertTrue(path.endswith("gscn_4x64_dram16shared.yaml"))
        text, dram = self.dram_block(path)
        self.assertIn("    shared_bandwidth: 16\n", dram)
        self.assertNotIn("read_bandwidth", text)
        self.assertIn("architecture: gscn_4x64_dram16shared\n", text)


class TargetSummaryTable(unittest.TestCase):
    def test_counts_and_rows(self):
        t = TargetSummary()
        t.add("claim A", "net 1", "2.00×", "2.10×", 1.05)
        t.add("claim A", "net 2", "2.00×", "3.00×", 1.50)
        t.add("claim B", "net 1", "1.00×", "2.00×", 2.00)
        t.alternative("claim A", "net 2", "a sourced reading", 1.10)
        t.alternative("claim B", "net 1", "another reading", 1.50)
        lines = t.lines("the sections below")
        self.assertTrue(lines[0].startswith(
            "Figures compared: 3. Within ±20 % as shipped: 1. Within it only under one of the "
            "sourced alternatives that the sections below state and measure: 1. Within it "
            "under neither: 1."), lines[0])
        # Grouped by claim, in the order the claims were first added.
        t.add("claim A", "net 3", "1.00×", "1.00×", 1.0)
        rows = [line for line in t.lines("below") if line.startswith(("| claim A", "| claim B"))]
        self.assertEqual([r.split(" | ")[1] for r in rows], ["net 1", "net 2", "net 3", "net 1"])
        self.assertIn("| claim A | net 2 | 2.00× | 3.00× | 1.50 | **outside ±20 %** | "
                      "a sourced reading: 1.10 |", lines)
        self.assertIn("| claim A | net 1 | 2.00× | 2.10× | 1.05 | within ±20 % | — |", lines)

    def test_an_alternative_for_no_figure_is_a_mistake(self):
        t = TargetSummary()
        t.add("claim A", "net 1", "2.00×", "2.10×", 1.05)
        t.alternative("claim A", "net 9", "a reading", 1.0)
        with self.assertRaises(AssertionError):
            t.lines("below")



class SearchOptions(unittest.TestCase):
    def test_a_fixed_budget_is_passed_and_named(self):
        search = Search("anneal", 20000, "latency")
        self.assertEqual(search.options(), ["--search", "anneal", "--budget", "20000",
                                            "--objective", "latency"])
        self.assertIn("budget 20000 per distinct problem", str(search))

    def test_until_converged_leaves_the_budget_to_trainloop(self):
        search = Search("anneal", 20000, "latency").until_converged()
        self.assertEqual(search.options(), ["--search", "anneal", "--objective", "latency"])
        self.assertEqual(str(search), "annealing search, until converged, objective latency, "
                                      "seed 1")
        self.assertEqual(Search(*search.stored()).options(), search.options())


class NetworkNames(unittest.TestCase):
    def refused(self, given):
        stderr = io.StringIO()
        with self.assertRaises(SystemExit) as exit, contextlib.redirect_stderr(stderr):
            check_names(argparse.ArgumentParser(prog="reproduce"), "--networks", given,
                        ["alexnet", "resnet18"])
        self.assertEqual(exit.exception.code, 2)
        return stderr.getvalue()

    def test_an_unknown_name_is_refused_with_the_nearest(self):
        message = self.refused(["alexnet", "resnt18"])
        self.assertIn("--networks: unknown network `resnt18` (did you mean `resnet18`?)",
                      message)
        self.assertIn("expected one of: alexnet, resnet18", message)

    def test_no_name_is_refused(self):
        self.assertIn("no network given", self.refused([]))

    def test_each_value_is_a_comma_separated_list(self):
        self.assertEqual(network_names(argparse.ArgumentParser(), "--only",
                                       ["alexnet,resnet18", "lenet"],
                                       ["alexnet", "lenet", "resnet18"]),
                         ["alexnet", "resnet18", "lenet"])

    def test_known_names_pass(self):
        check_names(argparse.ArgumentParser(), "--networks", ["resnet18"], ["resnet18"])

    def test_the_shipped_networks_are_the_workload_files(self):
        self.assertIn("resnet18", shipped_networks())
        self.assertNotIn("README", " ".join(shipped_networks()))

    def test_each_script_refuses_an_unknown_network_before_running(self):
        for script, option in (("reproduce_eager_pruning.py", "--only"),
                               ("reproduce_resprop.py", "--networks"),
                               ("reproduce_seed003.py", "--networks")):
            with self.subTest(script=script), tempfile.TemporaryDirectory() as work:
                done = subprocess.run(
                    [sys.executable, os.path.join(ROOT, "scripts", script), option, "alexnt",
                     "--trainloop", os.path.join(work, "none"), "--work", work],
                    capture_output=True, text=True, timeout=60)
                self.assertEqual(done.returncode, 2, done.stderr)
                self.assertIn("did you mean `alexnet`?", done.stderr)


if __name__ == "__main__":
    unittest.main()
