"""scripts/reproduce_seed003.py's bookkeeping, without running trainloop: which
parts a stored run still lacks (what --resume runs and the report names), and
which shipped specs an architecture variant changes."""

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


if __name__ == "__main__":
    unittest.main()
