"""A report over the fixture database: every section of the registry is
there with content, its numbers are the canned queries' numbers (and the
model's, for the per-wave histograms), it references nothing outside the
file, every chart is also written as PDF and SVG, and bad databases or
options are clear errors with exit code 2."""

import json
import math
import os
import re
import shutil
import sqlite3
import unittest

from report_fixture import DB, SOURCE_DIR, WORK_DIR, Page, query, sql, trainloop, \
    write_report
from trainloop_report.sections import SECTIONS

BASELINE = "procrustes_baseline_16x16"


def close(a, b, rel=1e-9):
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-12)


class ProposalFields(unittest.TestCase):
    def test_a_fibertree_format_names_its_ranks(self):
        from trainloop_report.sections.proposals import _formats
        summary = {"sparse": {"formats": [
            {"level": "GLB", "data_space": "weights", "format": "fibertree",
             "ranks": ["UOP", "CP"]},
            {"level": "DRAM", "data_space": "inputs", "format": "csr", "ranks": []},
            {"level": "RF", "data_space": "inputs", "format": "bitmap"}]}}  # an older summary
        self.assertEqual(_formats(summary), "weights in fibertree [UOP, CP] at GLB; "
                         "inputs in csr at DRAM; inputs in bitmap at RF")

    def test_levels_name_their_bandwidth_limits(self):
        from trainloop_report.sections.proposals import _levels
        level = {"name": "DRAM", "class": "dram", "capacity_bytes": None, "instances": 1,
                 "word_bits": 16, "data_spaces": ["weights"], "read_bandwidth": 8,
                 "write_bandwidth": None}
        self.assertEqual(_levels({"levels": [level]}),  # an older summary: no shared_bandwidth
                         "DRAM (dram): unbounded, 16-bit words, holds weights, "
                         "reads ≤ 8 words/cycle")
        level.update(read_bandwidth=None, shared_bandwidth=16)
        self.assertEqual(_levels({"levels": [level]}),
                         "DRAM (dram): unbounded, 16-bit words, holds weights, "
                         "reads + writes ≤ 16 words/cycle")
        level.update(shared_bandwidth=None)
        self.assertEqual(_levels({"levels": [level]}),
                         "DRAM (dram): unbounded, 16-bit words, holds weights")

    def test_phase_units_read_as_shared_when_a_summary_predates_them(self):
        from trainloop_report.sections.proposals import _phase_units
        self.assertEqual(_phase_units({"pe_array": {"phase_units": "separate"}}),
                         "on separate units: the slowest phase")
        self.assertEqual(_phase_units({"pe_array": {}}), "in turn on one datapath: their sum")


class MetricTable(unittest.TestCase):
    """The report reads the engine's metric table (layer_phase_metrics.def)
    rather than a column list of its own."""

    def test_every_metric_of_the_table_is_read_with_its_fields(self):
        from trainloop_report.metrics import DEFINITIONS, LAYER_PHASE_METRICS
        lines = [line for line in DEFINITIONS.read_text().splitlines()
                 if line.startswith("TRAINLOOP_METRIC(")]
        self.assertEqual([m.name for m in LAYER_PHASE_METRICS],
                         [line[len("TRAINLOOP_METRIC("):].split(",")[0] for line in lines])
        for m in LAYER_PHASE_METRICS:
            self.assertIn(m.sql_type, ("INTEGER", "REAL"), m.name)
            self.assertIn(m.shown, ("all", "sparse", "stored"), m.name)
            self.assertTrue(m.header and m.description, m.name)

    def test_a_layer_result_has_a_field_per_metric(self):
        from dataclasses import fields
        from trainloop_report.data import LayerResult
        from trainloop_report.metrics import LAYER_PHASE_METRICS
        names = {f.name for f in fields(LayerResult)}
        for m in LAYER_PHASE_METRICS:
            self.assertIn(m.name, names)

    def test_a_description_may_hold_commas_and_a_unit_may_be_empty(self):
        from trainloop_report.metrics import read_metrics
        [m] = read_metrics('// TRAINLOOP_METRIC(a comment)\n'
                           'TRAINLOOP_METRIC(x, double, REAL, "x", "x (a, b)", "", sparse,\n'
                           '                 "one, two")\n')
        self.assertEqual((m.name, m.header, m.unit, m.shown, m.description),
                         ("x", "x (a, b)", "", "sparse", "one, two"))


class PaperFigures(unittest.TestCase):
    """Ratios spanning orders of magnitude and Pareto fronts are drawn on log
    axes; bars carry hatches beside their colours (greyscale print)."""

    @classmethod
    def setUpClass(cls):
        from trainloop_report import database
        from trainloop_report.charts import Figures
        from trainloop_report.context import Context
        from trainloop_report.selection import Selection
        from trainloop_report.sections import breakdown, pareto, speedup

        cls.drawn = {}
        drawn = cls.drawn

        class Recording(Figures):
            def render(self, fig, name):
                drawn[name] = [(ax.get_xscale(), ax.get_yscale(),
                                {p.get_hatch() for p in ax.patches}) for ax in fig.axes]
                return super().render(fig, name)

        db = database.load(DB)
        ctx = Context(db=db, sel=Selection(db, baseline=BASELINE), figures=Recording())
        for section in (speedup, pareto, breakdown):
            section.build(ctx)

    def test_ratios_are_on_a_log_axis(self):
        self.assertEqual([y for _, y, _ in self.drawn["speedup_step"]], ["log", "log"])

    def test_pareto_fronts_are_on_log_axes(self):
        for x, y, _ in self.drawn["pareto_step"]:
            self.assertEqual((x, y), ("log", "log"))

    def test_stacked_classes_are_hatched(self):
        hatches = set().union(*(h for _, _, h in self.drawn["breakdown_phase_class"]))
        self.assertGreater(len(hatches - {None, ""}), 1)


class ReportOverFixture(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.out, cls.figures_dir, cls.html = write_report("report_test", "--baseline", BASELINE)
        cls.page = Page(cls.html)

    def test_every_registered_section_is_there_with_content(self):
        self.assertEqual(self.page.sections, [s.id for s in SECTIONS])
        for s in SECTIONS:
            body = re.search(rf'<section id="{s.id}".*?</section>', self.html, re.S).group(0)
            if s.empty_note:
                self.assertNotIn(s.empty_note, body, f"section {s.id} is empty")
            self.assertTrue("<table" in body or "<figure" in body, s.id)

    def test_nothing_outside_the_file_is_referenced(self):
        for pattern in (r"(?i)(https?|ftp|file)://", r"(?i)<script|<link|<iframe|<img|<object",
                        r"(?i)@import|url\((?!#)"):
            found = re.search(pattern, self.html)
            self.assertIsNone(found, found and self.html[found.start() - 200:found.end() + 50])
        for tag, name, value in self.page.attributes:
            if name in ("href", "src", "xlink:href", "action"):
                self.assertTrue(value.startswith("#"), f"<{tag} {name}={value}>")

    def test_every_chart_is_written_as_pdf_and_svg(self):
        self.assertGreater(len(self.page.figures), 5)
        for name in self.page.figures:
            with open(os.path.join(self.figures_dir, name + ".pdf"), "rb") as f:
                self.assertEqual(f.read(5), b"%PDF-")
            with open(os.path.join(self.figures_dir, name + ".svg"), encoding="utf-8") as f:
                self.assertIn("<svg", f.read())

    def test_every_pdf_is_a_two_column_page_with_truetype_fonts(self):
        # What camera-ready checks ask (pdffonts: no Type 3; the page the
        # width it prints at). matplotlib writes font dictionaries and the
        # page box uncompressed.
        from trainloop_report.charts import COLUMN_WIDTHS_IN
        for name in self.page.figures:
            with open(os.path.join(self.figures_dir, name + ".pdf"), "rb") as f:
                pdf = f.read()
            self.assertNotIn(b"/Type3", pdf, name)
            self.assertRegex(pdf, rb"/Subtype /(TrueType|CIDFontType2)", name)
            box = re.search(rb"/MediaBox \[ *0 0 ([0-9.]+) ([0-9.]+) *\]", pdf)
            self.assertIsNotNone(box, name)
            self.assertAlmostEqual(float(box.group(1)), COLUMN_WIDTHS_IN[2] * 72, delta=0.5,
                                   msg=name)

    def test_speedup_rows_are_compare_archs_rows(self):
        rows = query("compare-archs", "--baseline", BASELINE, "--phase", "step")
        table = self.page.tables["speedup"]
        self.assertEqual(len(table), len(rows))
        for r in rows:
            cells = table[f"{r['network']}|{r['batch']}|{r['arch']}|{r['sparsity']}"]
            self.assertEqual(cells["dataflow"][0], r["dataflow"])
            self.assertEqual(cells["cycles"][1], r["cycles"])
            self.assertTrue(close(cells["energy_pj"][1], r["energy_pj"]))
            self.assertTrue(close(cells["speedup"][1], r["speedup"]), (cells, r))
            self.assertTrue(close(cells["energy_ratio"][1], r["energy_ratio"]))

    def test_dataflow_rows_are_compare_dataflows_rows(self):
        table = self.page.tables["dataflows"]
        seen = 0
        for network in {k.split("|")[2] for k in table}:
            for r in query("compare-dataflows", "--network", network, "--phase", "step"):
                cells = table[f"{r['arch']}|{r['sparsity']}|{network}|{r['batch']}|"
                              f"{r['dataflow']}"]
                self.assertEqual(cells["cycles"][1], r["cycles"])
                self.assertTrue(close(cells["energy_pj"][1], r["energy_pj"]))
                self.assertTrue(close(cells["edp_vs_best"][1], r["edp_vs_best"]))
                seen += 1
        self.assertEqual(seen, len(table))

    def test_pareto_rows_are_the_pareto_query(self):
        table = self.page.tables["pareto"]
        networks = {row["network"][0] for row in table.values()}
        mine = sorted((row["proposal"][0], row["dataflow"][0], row["cycles"][1],
                       row["energy_pj"][1]) for row in table.values())
        theirs = []
        for network in networks:
            theirs += [(f"{r['arch']} ({r['sparsity']})", r["dataflow"], r["cycles"],
                        r["energy_pj"]) for r in query("pareto", "--network", network)]
        self.assertEqual(mine, sorted(theirs))

    def test_energy_classes_add_up_to_the_phase_totals(self):
        totals = {(r["network"], r["arch"], r["sparsity"], r["phase"]): r["energy_pj"] for r in
                  sql("SELECT n.name AS network, a.name AS arch, s.name AS sparsity, t.phase, "
                      "t.energy_pj, p.id FROM phase_totals t JOIN points p ON p.id = t.point_id "
                      "JOIN architectures a ON a.id = p.arch_id JOIN networks n ON "
                      "n.id = p.network_id JOIN sparsity_profiles s ON s.id = p.sparsity_id")}
        speedup = self.page.tables["speedup"]
        for key, cells in self.page.tables["breakdown"].items():
            network, batch, arch, sparsity, phase = key.split("|")
            point = int(speedup[f"{network}|{batch}|{arch}|{sparsity}"]["point_id"][1])
            stored = sql(f"SELECT energy_pj FROM phase_totals WHERE point_id = {point} "
                         f"AND phase = '{phase}'")[0]["energy_pj"]
            self.assertTrue(close(cells["total"][1], stored, 1e-9))
            parts = sum(v[1] for c, v in cells.items() if c.startswith("class_"))
            self.assertTrue(close(parts, stored, 1e-9))
        self.assertTrue(totals)

    def test_sparse_rows_are_the_stored_totals(self):
        speedup = self.page.tables["speedup"]
        table = self.page.tables["sparse"]
        self.assertTrue(table)
        for key, cells in table.items():
            network, batch, arch, sparsity, phase = key.split("|")
            point = int(speedup[f"{network}|{batch}|{arch}|{sparsity}"]["point_id"][1])
            t = sql(f"SELECT macs, performed_macs, effectual_macs, imbalance_cycles, cycles FROM "
                    f"phase_totals WHERE point_id = {point} AND phase = '{phase}'")[0]
            self.assertEqual(cells["macs"][1], t["macs"])
            self.assertTrue(close(cells["performed_macs"][1], t["performed_macs"]))
            self.assertTrue(close(cells["effectual_macs"][1], t["effectual_macs"]))
            self.assertTrue(close(cells["imbalance_cycles"][1], t["imbalance_cycles"]))
            self.assertLessEqual(t["performed_macs"], t["macs"])
            if phase == "step":  # the fixture's sparse designs skip MACs somewhere
                self.assertLess(t["performed_macs"], t["macs"])

    def test_histograms_are_the_models(self):
        table = self.page.tables["histograms"]
        self.assertTrue(table)
        by_target = {}
        for key, cells in table.items():
            point, layer, phase, _ = key.split("|")
            by_target.setdefault((point, layer, phase), []).append(cells["fraction"][1])
        for (point, layer, phase), fractions in by_target.items():
            answer = json.loads(trainloop("eval", "--db", DB, "--point", point, "--layer", layer,
                                          "--phase", phase, "--imbalance", "monte-carlo",
                                          "--imbalance-histogram", "--format", "json").stdout)
            expected = [b["fraction_of_waves"] for b in answer["imbalance"]["histogram"]]
            self.assertEqual(fractions, expected)
            self.assertTrue(close(sum(fractions), 1.0, 1e-9))

    def test_a_stored_result_evaluates_again_to_its_stored_numbers(self):
        rows = sql("SELECT r.point_id, r.layer, r.phase, r.cycles, r.energy_pj, "
                   "r.performed_macs FROM results r JOIN points p ON p.id = r.point_id "
                   "JOIN architectures a ON a.id = p.arch_id WHERE r.choice = 0 "
                   "AND a.name = 'procrustes_sparse_16x16' ORDER BY r.id")
        self.assertTrue(rows)
        for r in rows[::max(len(rows) // 6, 1)]:  # a few: each runs the binary
            answer = json.loads(trainloop("eval", "--db", DB, "--point", str(r["point_id"]),
                                          "--layer", r["layer"], "--phase", r["phase"],
                                          "--format", "json").stdout)
            self.assertEqual(answer["cycles"], r["cycles"])
            self.assertTrue(close(answer["energy_pj"], r["energy_pj"], 1e-12))
            self.assertTrue(close(answer["performed_macs"], r["performed_macs"], 1e-12))

    def test_layer_rows_add_up_to_the_step(self):
        speedup = self.page.tables["speedup"]
        energy = {}
        for key, cells in self.page.tables["layers"].items():
            network, batch, arch, sparsity, _ = key.split("|")
            k = f"{network}|{batch}|{arch}|{sparsity}"
            energy[k] = energy.get(k, 0.0) + cells["energy_pj"][1]
        self.assertEqual(set(energy), set(speedup))
        for k, e in energy.items():
            self.assertTrue(close(e, speedup[k]["energy_pj"][1], 1e-9))

    def test_provenance_lists_every_failed_point(self):
        failed = sql("SELECT sweep_id, idx, failure FROM points WHERE status = 'failed'")
        self.assertTrue(failed, "the fixture has failed points")
        table = self.page.tables["failed"]
        self.assertEqual(len(table), len(failed))
        for f in failed:
            self.assertEqual(table[f"{f['sweep_id']}|{f['idx']}"]["failure"][0], f["failure"])
        version = trainloop("--version").stdout.strip()
        self.assertIn(version, self.html)

    def test_scaling_appears_for_a_design_at_two_array_sizes(self):
        families = {row["family"][0] for row in self.page.tables["scaling"].values()}
        self.assertIn("procrustes_baseline_16x16, procrustes_baseline_8x8", families)

    def test_network_filter(self):
        _, _, html = write_report("report_filtered", "--network", "mlp_mnist")
        page = Page(html)
        self.assertEqual({r["network"][0] for r in page.tables["speedup"].values()},
                         {"mlp_mnist"})


class ChosenHistogramLayers(unittest.TestCase):
    def test_only_the_named_layer_phases_get_histograms(self):
        _, _, html = write_report("report_histogram_layer", "--histogram-layer", "fc1:wu",
                                  "--network", "mlp_mnist")
        keys = Page(html).tables["histograms"]
        self.assertTrue(keys)
        self.assertEqual({tuple(k.split("|")[1:3]) for k in keys}, {("fc1", "wu")})


class CartesianProposal(unittest.TestCase):
    """Points of the Cartesian-product evaluator (`train-cost --evaluator
    cartesian --db`) report like any other, less the per-wave histograms,
    which need a loop nest: a note says so instead of a parse error each."""

    def test_a_cartesian_point_reports_without_histograms(self):
        directory = os.path.join(WORK_DIR, "report_cartesian")
        shutil.rmtree(directory, ignore_errors=True)
        os.makedirs(directory)
        db = os.path.join(directory, "cartesian.db")
        sphg = os.path.join(directory, "sphg.yaml")
        with open(sphg, "w", encoding="utf-8") as f:
            f.write("sparsity_profile: sphg\nrules:\n  - tensors: dy\n    phases: [bw, wu]\n"
                    "    density: 0.1\n")
        for profile in ("dense", sphg):
            trainloop("train-cost", "--arch", "gscn_4x64", "--workload", "lenet", "--batch", "8",
                      "--sparsity", profile, "--iterations", "1", "--evaluator", "cartesian",
                      "--quiet", "--db", db)
        out = os.path.join(directory, "r.html")
        trainloop("report", "--db", db, "--out", out)
        with open(out, encoding="utf-8") as f:
            html = f.read()
        self.assertIn("Proposals costed by the Cartesian-product evaluator have no per-wave "
                      "histogram", html)
        self.assertNotIn("No histogram for", html)
        self.assertIn("cartesian", html)


class BadInput(unittest.TestCase):
    def setUp(self):
        self.dir = os.path.join(WORK_DIR, "report_bad_input")
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)

    def report(self, db, *extra):
        run = trainloop("report", "--db", db, "--out", os.path.join(self.dir, "r.html"), *extra,
                        check=False)
        return run.returncode, run.stderr

    def copy(self, change):
        path = os.path.join(self.dir, "copy.db")
        shutil.copy(DB, path)
        conn = sqlite3.connect(path)
        conn.executescript(change)
        conn.commit()
        conn.close()
        return path

    def assert_error(self, code_and_err, *words):
        code, err = code_and_err
        self.assertEqual(code, 2, err)
        self.assertIn("error:", err)
        for w in words:
            self.assertIn(w, err)
        self.assertNotIn("Traceback", err)

    def test_missing_file(self):
        self.assert_error(self.report(os.path.join(self.dir, "none.db")), "none.db")

    def test_empty_file(self):
        path = os.path.join(self.dir, "empty.db")
        open(path, "w").close()
        self.assert_error(self.report(path), "empty.db", "empty database")

    def test_not_sqlite(self):
        path = os.path.join(self.dir, "text.db")
        with open(path, "w") as f:
            f.write("this is not a database\n" * 100)
        self.assert_error(self.report(path), "text.db")

    def test_foreign_sqlite(self):
        path = os.path.join(self.dir, "foreign.db")
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE t (x)")
        conn.close()
        self.assert_error(self.report(path), "not a trainloop results database")

    def test_malformed_summary(self):
        path = self.copy("UPDATE architectures SET summary = '{not json';")
        self.assert_error(self.report(path), "malformed JSON", "architectures.summary")

    def test_no_finished_point(self):
        path = self.copy("UPDATE points SET status = 'failed', failure = 'test';")
        self.assert_error(self.report(path), "no finished point")

    def test_unknown_baseline_network_and_histogram_layer(self):
        self.assert_error(self.report(DB, "--baseline", "nope"), "nope", BASELINE)
        self.assert_error(self.report(DB, "--network", "nope"), "nope", "mlp_mnist")
        self.assert_error(self.report(DB, "--histogram-layer", "fc9"), "fc9", "fc1")

    def test_rows_from_before_schema_2_still_report(self):
        path = self.copy("UPDATE architectures SET summary = NULL; "
                         "UPDATE results SET energy_by_class = NULL, performed_macs = NULL; "
                         "UPDATE phase_totals SET performed_macs = NULL;")
        code, err = self.report(path)
        self.assertEqual(code, 0, err)
        with open(os.path.join(self.dir, "r.html"), encoding="utf-8") as f:
            html = f.read()
        self.assertIn("written before schema 2", html)
        # The component library is found in the shipped arch_specs/: histograms still come.
        self.assertTrue(Page(html).tables.get("histograms"))

    def test_out_never_names_the_database_and_is_checked_before_rendering(self):
        path = self.copy("")
        with open(path, "rb") as f:
            before = f.read()
        for out in (path, path + "-wal", path + "-shm"):
            run = trainloop("report", "--db", path, "--out", out, check=False)
            self.assert_error((run.returncode, run.stderr), "--out", "results database")
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)
        run = trainloop("report", "--db", path, "--out",
                        os.path.join(self.dir, "no_such_folder", "r.html"), check=False)
        self.assert_error((run.returncode, run.stderr), "no_such_folder", "does not exist")

    def test_python_package_directly(self):
        import subprocess
        import sys
        path = os.path.join(self.dir, "empty2.db")
        open(path, "w").close()
        run = subprocess.run([sys.executable, "-m", "trainloop_report", "--db", path],
                             capture_output=True, text=True,
                             env={**os.environ,
                                  "PYTHONPATH": os.path.join(SOURCE_DIR, "reports")})
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn("empty database", run.stderr)


class SafeWrites(unittest.TestCase):
    """The page and --figures' files replace a symbolic link planted at their
    name; the link's target, outside the folder, is never written."""

    def test_a_planted_link_is_replaced_not_followed(self):
        import tempfile
        from trainloop_report.files import write_replacing
        with tempfile.TemporaryDirectory() as root:
            out = os.path.join(root, "out")
            os.mkdir(out)
            target = os.path.join(root, "precious.txt")
            with open(target, "w", encoding="utf-8") as f:
                f.write("keep me")
            for name in ("report.html", "report.html.tmp", "chart.pdf"):
                os.symlink(target, os.path.join(out, name))
                write_replacing(os.path.join(out, name), "new" if name != "chart.pdf" else b"%PDF")
                self.assertFalse(os.path.islink(os.path.join(out, name)))
            with open(target, encoding="utf-8") as f:
                self.assertEqual(f.read(), "keep me")
            with open(os.path.join(out, "report.html"), encoding="utf-8") as f:
                self.assertEqual(f.read(), "new")
            self.assertEqual(sorted(os.listdir(out)),
                             ["chart.pdf", "report.html", "report.html.tmp"])


if __name__ == "__main__":
    unittest.main()
