"""The quick start on a clean clone (scripts/quickstart.sh, scripts/setup.sh).

A newcomer's first command must not begin with an error, must write its report
from the sweep it has just run, and must install no test tools. Building a
fresh clone would take too long for a test, so the clone runs the script with
an existing binary (TRAINLOOP_BINARY, which skips the set-up and the build);
the set-up and the build steps are checked statically and by configuring the
clone without the test toolchain's packages.

Environment: TRAINLOOP_BINARY (the built trainloop; required for the run).
"""

import os
import re
import shutil
import subprocess
import tempfile
import unittest

SOURCE = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
QUICKSTART = os.path.join(SOURCE, "scripts", "quickstart.sh")
SETUP = os.path.join(SOURCE, "scripts", "setup.sh")

# Packages only the tests need (scripts/setup.sh --test).
TEST_TOOLS = {"libgtest-dev", "libgmock-dev", "libbenchmark-dev", "clang-format",
              "python3-pyflakes", "chromium", "clang", "libfuzzer-14-dev", "slurm-wlm", "munge"}
# What `trainloop report` runs on (reports/trainloop_report imports matplotlib and numpy).
REPORT_NEEDS = {"python3", "python3-matplotlib", "python3-numpy"}
# A first line that reports a failure.
ERROR = re.compile(r"error|no such file|not found|cannot|failed|warning", re.IGNORECASE)


def commands(path):
    """The script's lines that run something (no comments, no blank lines)."""
    with open(path) as f:
        lines = [line.strip() for line in f]
    return [line for line in lines if line and not line.startswith("#")]


def setup_packages(*options):
    out = subprocess.run([SETUP, *options, "--list"], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


class SetupParts(unittest.TestCase):
    def test_the_quick_start_part_has_no_test_tool(self):
        self.assertEqual(setup_packages() & TEST_TOOLS, set())

    def test_the_quick_start_part_has_what_reports_need(self):
        self.assertLessEqual(REPORT_NEEDS, setup_packages())

    def test_the_test_part_adds_the_test_toolchain(self):
        self.assertLessEqual(TEST_TOOLS | setup_packages(), setup_packages("--test"))

    def test_an_unknown_option_is_refused(self):
        out = subprocess.run([SETUP, "--tests"], capture_output=True, text=True)
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown option `--tests`", out.stderr)


class QuickstartOrder(unittest.TestCase):
    def setUp(self):
        self.lines = commands(QUICKSTART)

    def index(self, pattern):
        found = [i for i, line in enumerate(self.lines) if re.search(pattern, line)]
        self.assertTrue(found, f"scripts/quickstart.sh runs no `{pattern}`")
        return found

    def test_strict_mode_comes_first(self):
        self.assertEqual(self.lines[0], "set -euo pipefail", self.lines[:3])

    def test_the_report_is_written_after_the_sweep(self):
        sweep = self.index(r"\bsweep examples/sweeps/quickstart\.yaml")
        report = self.index(r"\breport --db")
        self.assertEqual(len(report), 1, "one report, after the sweep")
        self.assertGreater(report[0], max(sweep))

    def test_the_set_up_installs_no_test_tools(self):
        setup = self.index(r"scripts/setup\.sh")
        for i in setup:
            self.assertNotIn("--test", self.lines[i])

    def test_a_fresh_build_tree_needs_no_test_libraries(self):
        configure = [line for line in self.lines if line.startswith("cmake -S") and "-G" in line]
        self.assertTrue(configure)
        for line in configure:
            self.assertIn("-DTRAINLOOP_BUILD_TESTS=OFF", line)
            self.assertIn("-DTRAINLOOP_BUILD_BENCH=OFF", line)


@unittest.skipUnless(os.environ.get("TRAINLOOP_BINARY"), "needs TRAINLOOP_BINARY")
@unittest.skipUnless(os.path.exists(os.path.join(SOURCE, ".git")), "needs a git checkout to clone")
class CleanClone(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory()
        cls.clone = os.path.join(cls.directory.name, "trainloop")
        subprocess.run(["git", "clone", "-q", "--shared", SOURCE, cls.clone], check=True)
        # The script under test is this checkout's, committed or not.
        shutil.copy(QUICKSTART, os.path.join(cls.clone, "scripts", "quickstart.sh"))
        env = dict(os.environ, TRAINLOOP_DATA_DIR=cls.clone,
                   MPLCONFIGDIR=os.path.join(cls.directory.name, "mpl"))
        cls.run_result = subprocess.run([os.path.join(cls.clone, "scripts", "quickstart.sh")],
                                        cwd=cls.directory.name, env=env, capture_output=True,
                                        text=True, timeout=240)
        print(cls.run_result.stdout)
        print(cls.run_result.stderr)

    @classmethod
    def tearDownClass(cls):
        cls.directory.cleanup()

    def test_it_succeeds(self):
        self.assertEqual(self.run_result.returncode, 0, self.run_result.stderr)

    def test_its_first_line_is_not_an_error(self):
        for stream in (self.run_result.stdout, self.run_result.stderr):
            lines = [line for line in stream.splitlines() if line.strip()]
            if lines:
                self.assertIsNone(ERROR.search(lines[0]), lines[0])

    def test_it_prints_the_headline_comparison(self):
        self.assertIn("energy_ratio", self.run_result.stdout)
        for network in ("resnet18", "mobilenet_v2", "vgg_s"):
            self.assertIn(network, self.run_result.stdout)

    def test_it_ends_with_the_report_of_this_run(self):
        last = self.run_result.stdout.strip().splitlines()[-1]
        report = os.path.join(self.clone, "build", "quickstart_report.html")
        self.assertEqual(last, f"Report: {report}")
        self.assertTrue(os.path.isfile(os.path.join(self.clone, "build", "quickstart.db")))
        with open(report) as f:
            self.assertIn("procrustes_sparse_16x16", f.read())

    def test_a_fresh_clone_configures_without_the_test_toolchain(self):
        # The quick start's configure line, with the test libraries made unfindable.
        out = subprocess.run(
            ["cmake", "-S", self.clone, "-B", os.path.join(self.directory.name, "configure"),
             "-G", "Ninja", "-DTRAINLOOP_BUILD_TESTS=OFF", "-DTRAINLOOP_BUILD_BENCH=OFF",
             "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON", "-DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON"],
            capture_output=True, text=True)
        self.assertEqual(out.returncode, 0, out.stdout + out.stderr)


if __name__ == "__main__":
    unittest.main()
