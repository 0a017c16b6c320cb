"""scripts/reproduce_seed003.py's bookkeeping, without running trainloop: which
parts a stored run still lacks (what --resume runs and the report names),
which shipped specs an architecture variant changes, and that the stored runs
of tests/golden/seed003 render docs/reproductions/seed003.md exactly."""

import json
import os
import sys
import tempfile
import unittest

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "scripts"))
import reproduce_seed003 as seed003  # noqa: E402

ALL_PARTS = [key for key, _, _ in seed003.LATER_PARTS]
ALL_VARIANTS = {name: {} for name, _ in seed003.ARCH_VARIANTS}


class MissingParts(unittest.TestCase):
    def test_a_fresh_run_lacks_every_later_part(self):
        self.assertEqual(seed003.missing_parts({"networks": {}}), ALL_PARTS)

    def test_a_complete_run_lacks_nothing(self):
        stored = {key: {} for key in ALL_PARTS}
        stored["arch_variants"] = dict(ALL_VARIANTS)
        self.assertEqual(seed003.missing_parts(stored), [])

    def test_an_interrupted_variant_leaves_the_variants_missing(self):
        stored = {key: {} for key in ALL_PARTS}
        first = seed003.ARCH_VARIANTS[0][0]
        stored["arch_variants"] = {first: {}}
        self.assertEqual(seed003.missing_parts(stored), ["arch_variants"])


class ArchitectureVariants(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.directory.cleanup()

    def read(self, path):
        with open(path) as f:
            return f.read()

    def test_tile_sized_indices_drop_the_stated_widths(self):
        path = seed003.variant_arch("chen2024_scnn_8x8", "index_bits_tile", self.directory.name)
        spec = yaml.safe_load(self.read(path))
        formats = spec["sparse"]["formats"]
        self.assertEqual({f["format"] for f in formats}, {"csr"})
        self.assertFalse([f for f in formats if "index_bits" in f])
        self.assertEqual(spec["architecture"], "chen2024_scnn_8x8_index_bits_tile")

    def test_only_sigmas_bitmap_has_no_index_fields(self):
        designs = [seed003.PROPOSED] + [arch for _, arch in seed003.BASELINES]
        self.assertEqual([arch for arch in designs if not seed003.has_index_fields(arch)],
                         ["chen2024_sigma_8x8"])

    def test_a_design_without_indices_keeps_its_spec(self):
        # SIGMA's bitmap has no index field: the variant does not concern it.
        self.assertIsNone(
            seed003.variant_arch("chen2024_sigma_8x8", "index_bits_tile", self.directory.name))

    def test_pe_registers_apply_to_every_design(self):
        for _, arch in [("proposed", seed003.PROPOSED)] + seed003.BASELINES:
            text = self.read(seed003.variant_arch(arch, "pe_registers", self.directory.name))
            self.assertIn("name: PE_REG", text, arch)

    def test_an_unknown_variant_is_an_error(self):
        with self.assertRaises(ValueError):
            seed003.variant_arch("chen2024_scnn_8x8", "no_such_variant", self.directory.name)


class RenderedDocument(unittest.TestCase):
    def test_the_document_is_what_the_stored_runs_render(self):
        # A report that fails on a complete set of runs would end a two-hour run without a
        # document (a %-format slip did, once); a document edited by hand, or left behind
        # its report code, differs here.
        root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
        with open(os.path.join(root, "tests", "golden", "seed003", "results.json")) as f:
            runs = json.load(f)
        with open(os.path.join(root, "docs", "reproductions", "seed003.md")) as f:
            document = f.read()
        self.assertEqual(seed003.write_report(runs), document,
                         "render it again: scripts/reproduce_seed003.py --report-only --as-stored "
                         "--work tests/golden/seed003")


class TrafficDirection(unittest.TestCase):
    """Fig. 11's direction names where the proposed design does not move fewer words, and
    whether it does on its own mappings (the formats alone)."""

    @staticmethod
    def runs(proposed, scnn, sigma, sparsetrain):
        words = {"proposed": proposed, "SCNN": scnn, "SIGMA": sigma, "SparseTrain": sparsetrain}
        return {design: {"total_offchip_words": w} for design, w in words.items()}

    def test_right_when_every_baseline_moves_more(self):
        results = {"alexnet": self.runs(90, 100, 100, 100)}
        self.assertEqual(seed003.traffic_direction(results, ["alexnet"], {}),
                         "right (less traffic than every baseline)")

    def test_names_the_network_and_baseline_where_it_is_not(self):
        results = {"alexnet": self.runs(90, 100, 100, 100), "vgg16": self.runs(101, 120, 100, 110)}
        text = seed003.traffic_direction(results, ["alexnet", "vgg16"], {})
        self.assertEqual(text, "not right for VGG-16 against SIGMA (+1.00 %)")

    def test_says_when_the_formats_alone_save_words_there(self):
        results = {"vgg16": self.runs(101, 120, 100, 110)}
        same = {"vgg16": {"proposed": {"offchip_words": 80}, "SIGMA": {"offchip_words": 81}}}
        text = seed003.traffic_direction(results, ["vgg16"], same)
        self.assertIn("fewer words than that baseline", text)
        same["vgg16"]["SIGMA"]["offchip_words"] = 80
        self.assertEqual(seed003.traffic_direction(results, ["vgg16"], same),
                         "not right for VGG-16 against SIGMA (+1.00 %)")


class PerMatrix(unittest.TestCase):
    """Figs. 13, 15 and 16: the traffic saving split over the paper's matrices."""

    def test_each_tensor_counts_for_its_matrix_with_its_metadata(self):
        evaluation = {"accesses": {"DRAM": {
            "w": {"reads": 10, "metadata_reads": 2}, "y": {"updates": 5, "metadata_updates": 1},
            "x": {"reads": 4}, "dy": {"reads": 3}, "dx": {"updates": 1}, "dw": {"updates": 7}}}}
        self.assertEqual(seed003.words_per_matrix(evaluation),
                         {"W": 12, "G": 7, "A": 10, "E": 4})
        self.assertEqual(sum(seed003.words_per_matrix(evaluation).values()),
                         seed003.dram_words(evaluation))

    def test_an_unknown_tensor_is_an_error_not_a_lost_word(self):
        with self.assertRaises(KeyError):
            seed003.words_per_matrix({"accesses": {"DRAM": {"z": {"reads": 1}}}})

    def test_the_points_add_up_to_the_whole_saving(self):
        proposed = {"W": 1, "G": 1, "A": 2, "E": 2}
        baseline = {"W": 2, "G": 2, "A": 3, "E": 3}
        points = seed003.points_per_matrix(proposed, baseline)
        self.assertAlmostEqual(points["W"], 0.1)
        self.assertAlmostEqual(sum(points.values()), 1 - 6 / 10)

    def test_the_papers_points_add_up_to_its_savings(self):
        for baseline, points in seed003.PAPER_PER_MATRIX.items():
            saving = -100 * seed003.PAPER["traffic"][baseline]
            self.assertLessEqual(abs(sum(points.values()) - saving), 1, baseline)

    def test_the_dual_format_saves_at_most_a_fifth_over_bf(self):
        # eqs. (5)-(9) at density 0.05: CSR 2.016 bits per element against BF's 2.6.
        self.assertAlmostEqual(seed003.largest_saving_over_bf(), 1 - 2.016 / 2.6, places=6)

    def test_the_dual_format_saves_at_most_a_sixth_over_csr(self):
        # eqs. (5)-(9) with 8-bit indices: (40 - 33) / 40 at density 1.
        self.assertAlmostEqual(seed003.largest_saving_over_csr(), 0.1753, places=3)

    def test_the_table_has_a_row_per_baseline_and_needs_per_matrix_runs(self):
        def design(words):
            return {"offchip_words_per_matrix": dict(zip(seed003.MATRICES, words))}
        same = {"alexnet": {"proposed": design([1, 1, 2, 2]), "SCNN": design([2, 2, 3, 3]),
                            "SIGMA": design([1, 1, 2, 3]), "SparseTrain": design([2, 1, 2, 2]),
                            "excluded": []}}
        lines = []
        seed003.write_per_matrix(lines.append, same)
        rows = [line for line in lines if line.startswith("| SCNN |")]
        self.assertEqual(rows,
                         ["| SCNN | 10.0 | 10.0 | 10.0 | 10.0 | 40.0 | 7 | 7 | 7 | 14 | 35 |"])
        self.assertTrue(any(line.startswith("| SparseTrain |") for line in lines))
        older = {"alexnet": {"proposed": {}, "excluded": []}}
        lines = []
        seed003.write_per_matrix(lines.append, older)
        self.assertEqual(lines, [], "runs stored before the split print no table")


if __name__ == "__main__":
    unittest.main()
