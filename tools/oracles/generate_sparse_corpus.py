#!/usr/bin/env python3
"""Generates the sparse Timeloop/Sparseloop reference corpus
(tests/golden/timeloop/sparse_corpus/) from the dense one.

Each case takes a dense corpus case (architecture, problem, mapping; its
arch.yaml and ART.yaml are copied from tests/golden/timeloop/dense/, its
ERT.yaml too with the sparse actions listed at 0 pJ: sparse_ert)
and adds random densities for Weights and Inputs (hypergeometric or
fixed-structured) and, in turn, one of these sparse optimizations:

  formats         one operand compressed ([UOP ... UOP, CP]: trainloop's csr)
                  at every level that keeps it (Sparseloop compresses from
                  DRAM down; an uncompressed level over a compressed one is
                  not modelled);
  formats_gating  the same, and the MACs gated on a zero operand;
  gating          the MACs gated on a zero operand, nothing compressed;
  coo             as formats, with [CP ... CP] ranks (trainloop's coo);
  skipping        one operand's reads skipped, on the other operand, at the
                  innermost level keeping both (else the one keeping it);
  storage_gating  the same reads gated instead;
  bitmap, rle     as formats, with [B ... B] or [RLE ... RLE] ranks, on a variant
                  of the architecture with a metadata storage beside every
                  level (ARCH_metadata/: arch.yaml, ERT.yaml, ART.yaml), which
                  Sparseloop needs for them.

Sparseloop wants at least one rank per loop that indexes a tile; every
compressed level gets 16 ranks per compressed level at or below it, which is
always enough and changes no count (tested by hand on glb_rf_8x4 m00).

Per case it writes CASE.yaml (problem with densities, mapping,
sparse_optimizations) and CASE.json (timeloop-model's summary,
compare_sparse.run_timeloop). The kept data spaces per level come from
`trainloop eval --timeloop` on the dense case.

    tools/oracles/generate_sparse_corpus.py --timeloop BUILD/timeloop/build \\
        --trainloop build/trainloop --out tests/golden/timeloop/sparse_corpus \\
        [--seed 14] [--per-arch 40]

Deterministic for a given seed. Standard library only."""

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_sparse import run_timeloop  # noqa: E402

DENSE = Path(__file__).resolve().parents[2] / "tests/golden/timeloop/dense"
TEMPLATES = ("formats", "formats_gating", "gating", "coo", "skipping", "storage_gating", "bitmap",
             "rle")
# Bitmask and run-length ranks need a metadata storage at every level that
# keeps them: these templates run on a variant of the architecture
# (ARCH_metadata/, metadata_architecture).
METADATA_TEMPLATES = ("bitmap", "rle")
DENSITIES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
DISTRIBUTIONS = ("hypergeometric", "fixed-structured")
RANKS_PER_LEVEL = 16


def arithmetic_name(arch_text):
    """The name of the local whose class is a MAC (v0.3 architecture)."""
    name = None
    for line in arch_text.splitlines():
        m = re.match(r"\s*-?\s*name:\s*(\S+)", line)
        if m:
            name = re.sub(r"\[.*\]$", "", m.group(1))  # without its instance range
        if re.match(r"\s*class:\s*\S*mac", line):
            return name
    raise ValueError("no MAC in the architecture")


def kept_levels(trainloop, arch_dir, case_yaml):
    """Levels outermost first, each with the data spaces the mapping keeps there."""
    files = [arch_dir / "arch.yaml", case_yaml, arch_dir / "ERT.yaml", arch_dir / "ART.yaml"]
    out = subprocess.run([trainloop, "eval", "--timeloop", *map(str, files), "--format", "json"],
                         check=True, capture_output=True, text=True)
    j = json.loads(out.stdout)
    return [(l["level"], set(j["accesses"].get(l["level"], {})))
            for l in j["mapping"]["levels"]]


def metadata_architecture(arch_text):
    """The architecture with a metadata storage beside every storage level: rows of
    16 bits holding 4-bit metadata words, as many bits as the level's data (DRAM:
    unbounded)."""
    out, klass, depth, width = [], "", None, None
    for line in arch_text.splitlines():
        out.append(line)
        if m := re.match(r"\s*-?\s*class:\s*(\S+)", line):
            klass, depth, width = m.group(1), None, None
        if m := re.match(r"\s*depth:\s*(\d+)", line):
            depth = int(m.group(1))
        if m := re.match(r"\s*width:\s*(\d+)", line):
            width = int(m.group(1))
        m = re.match(r"(\s*)datawidth:\s*(\d+)", line)
        if m and "mac" not in klass.lower():
            indent = m.group(1)
            out.append(f"{indent}metadata_storage_width: 16")
            out.append(f"{indent}metadata_datawidth: 4")
            if depth is not None:
                bits = depth * (width or int(m.group(2)))
                out.append(f"{indent}metadata_storage_depth: {bits // 16}")
    return "\n".join(out) + "\n"


# Sparseloop prices a gated or skipped access, and a gated or skipped MAC, at
# the full action's energy when the ERT does not list it (Timeloop v3.0.3,
# include/model/topology.hpp: gated_read falls back to read, gated_compute to
# compute). trainloop prices them at 0, as gating and skipping mean. The
# corpus's ERTs therefore list them, at 0: storage tables gated_read,
# skipped_read and gated_write (which every gated or skipped fill and update
# falls back to), and the MAC's compute_gated (which skipped MACs fall back
# to).
SPARSE_STORAGE_ACTIONS = ("gated_read", "skipped_read", "gated_write")
SPARSE_COMPUTE_ACTIONS = ("compute_gated",)


def sparse_ert(ert_text, mac):
    """The ERT with the sparse actions at 0 pJ appended to each table."""
    out, table = [], None
    lines = ert_text.splitlines()
    for i, line in enumerate(lines):
        out.append(line)
        if m := re.match(r"\s*- name:\s*(\S+)", line):
            table = m.group(1)
        last_action = re.match(r"(\s*)- \{name: ", line) and not (
            i + 1 < len(lines) and re.match(r"\s*- \{name: ", lines[i + 1]))
        if table and last_action:
            indent = re.match(r"(\s*)", line).group(1)
            component = re.sub(r"\[[^\]]*\]", "", table).split(".")[-1]
            actions = SPARSE_COMPUTE_ACTIONS if component == mac else SPARSE_STORAGE_ACTIONS
            out += [f"{indent}- {{name: {a}, energy: 0.0}}" for a in actions]
    return "\n".join(out) + "\n"


def ranks(count, upper, inner):
    return (f"        - format: {upper}\n" * (count - 1)) + f"        - format: {inner}\n"


def sparse_text(template, space, levels, mac):
    """The sparse_optimizations of `template`; `space` is the operand it compresses
    or skips, conditioned on the other operand."""
    other = "Inputs" if space == "Weights" else "Weights"
    targets = []
    rank_formats = {"formats": ("UOP", "CP"), "formats_gating": ("UOP", "CP"), "coo": ("CP", "CP"),
                    "bitmap": ("B", "B"), "rle": ("RLE", "RLE")}
    if template in rank_formats:
        upper, inner = rank_formats[template]
        keeping = [name for name, kept in levels if space in kept]
        for depth, name in enumerate(reversed(keeping), start=1):
            targets.append(f"  - name: {name}\n    representation-format:\n      data-spaces:\n"
                           f"      - name: {space}\n        ranks:\n"
                           + ranks(RANKS_PER_LEVEL * depth, upper, inner))
    if template in ("formats_gating", "gating"):
        targets.append(f"  - name: {mac}\n    compute-optimization:\n    - type: gating\n")
    if template in ("skipping", "storage_gating"):
        # The innermost level keeping both operands (else the one keeping `space`).
        both = [name for name, kept in levels if {space, other} <= kept]
        level = both[-1] if both else [name for name, kept in levels if space in kept][-1]
        kind = "skipping" if template == "skipping" else "gating"
        targets.append(f"  - name: {level}\n    action-optimization:\n    - type: {kind}\n"
                       f"      options:\n      - {{target: {space}, condition-on: [{other}]}}\n")
    return "sparse_optimizations:\n  targets:\n" + "".join(targets)


def with_densities(case_text, weights, inputs, distribution):
    anchor = "  instance:\n"
    at = case_text.index(anchor) + len(anchor)
    return (case_text[:at] + "    densities:\n"
            f"      Weights: {{distribution: {distribution}, density: {weights}}}\n"
            f"      Inputs: {{distribution: {distribution}, density: {inputs}}}\n"
            + case_text[at:].rstrip("\n") + "\n")  # some dense cases end without one


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeloop", required=True, help="Timeloop build directory")
    parser.add_argument("--trainloop", default="build/trainloop")
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--per-arch", type=int, default=40)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    written = failed = 0
    for arch_dir in sorted(p for p in DENSE.iterdir() if p.is_dir()):
        mac = arithmetic_name((arch_dir / "arch.yaml").read_text())
        cases = sorted(p for p in arch_dir.glob("*.yaml")
                       if p.name not in ("arch.yaml", "ERT.yaml", "ART.yaml"))
        # Each architecture's files beside its cases: the dense corpus's, with
        # the sparse actions in the ERT; and its variant with metadata storage.
        plain_dir = args.out / arch_dir.name
        metadata_dir = args.out / f"{arch_dir.name}_metadata"
        for out_dir, arch_text in ((plain_dir, (arch_dir / "arch.yaml").read_text()),
                                   (metadata_dir, metadata_architecture(
                                       (arch_dir / "arch.yaml").read_text()))):
            out_dir.mkdir(parents=True, exist_ok=True)
            (out_dir / "arch.yaml").write_text(arch_text)
            (out_dir / "ERT.yaml").write_text(sparse_ert((arch_dir / "ERT.yaml").read_text(), mac))
            (out_dir / "ART.yaml").write_text((arch_dir / "ART.yaml").read_text())
        for index, case in enumerate(rng.sample(cases, min(args.per_arch, len(cases)))):
            template = TEMPLATES[index % len(TEMPLATES)]
            metadata = template in METADATA_TEMPLATES
            out_dir = metadata_dir if metadata else plain_dir
            files_dir = out_dir
            space = rng.choice(("Weights", "Inputs"))
            weights, inputs = rng.choice(DENSITIES), rng.choice(DENSITIES)
            distribution = rng.choice(DISTRIBUTIONS)
            levels = kept_levels(args.trainloop, files_dir, case)
            text = (f"# {arch_dir.name}/{case.name} with Weights {weights}, Inputs {inputs} "
                    f"({distribution}); template {template}"
                    + (f", operand {space}" if template != "gating" else "") + "\n"
                    + with_densities(case.read_text(), weights, inputs, distribution)
                    + sparse_text(template, space, levels, mac))
            name = f"{case.stem}_{template}"
            (out_dir / f"{name}.yaml").write_text(text)
            files = [files_dir / "arch.yaml", out_dir / f"{name}.yaml", files_dir / "ERT.yaml",
                     files_dir / "ART.yaml"]
            try:
                summary = run_timeloop(args.timeloop, files)
            except subprocess.CalledProcessError as e:
                said = (e.stdout + e.stderr).decode(errors="replace").splitlines()
                errors = [line for line in said if "ERROR" in line or "Assert" in line]
                print(f"skipped {arch_dir.name}/{name}: timeloop-model failed: {errors[-1:]}")
                (out_dir / f"{name}.yaml").unlink()
                failed += 1
                continue
            (out_dir / f"{name}.json").write_text(json.dumps(summary, indent=1, sort_keys=True)
                                                  + "\n")
            written += 1
    print(f"{written} cases written, {failed} skipped")


if __name__ == "__main__":
    main()
