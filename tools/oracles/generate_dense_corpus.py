#!/usr/bin/env python3
"""Generates the dense Timeloop reference corpus (tests/golden/timeloop/dense/).

For each architecture below: random valid mappings of a set of layers (conv
strided/dilated/1x1/3x3/7x7, grouped and depthwise, FC, matmul), plus the
mappings timeloop-mapper finds for some of them, each evaluated by
timeloop-model (v3.0.3, tools/oracles/build_timeloop.sh) with a fixed ERT/ART.
Per architecture it writes arch.yaml, ERT.yaml, ART.yaml; per case
CASE.yaml (problem + mapping, one file) and CASE.json (timeloop-model's
summary, tools/oracles/timeloop_stats.py).

    tools/oracles/generate_dense_corpus.py --timeloop BUILD/timeloop/build \
        --out tests/golden/timeloop/dense [--seed 14] [--per-arch 70] [--mapper 8]

Deterministic for a given seed and Timeloop build (the mapper runs
single-threaded with a fixed search size). Standard library only."""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import timeloop_specs as ts  # noqa: E402
from timeloop_stats import parse_stats  # noqa: E402

SPACES = ("Weights", "Inputs", "Outputs")

# Energies per vector access (pJ): the Accelergy numbers of the golden case
# (tests/golden/timeloop/conv3x_fixed/ERT.yaml) and scaled variants, so each
# architecture prices reads, writes and updates differently.
DRAM_E = {"read": 512.0, "write": 512.0, "update": 512.0}
GLB_E = {"read": 32.377775, "write": 26.156875, "update": 26.156875}
RF_E = {"read": 0.680237, "write": 1.582678, "update": 1.582678}
SPAD_E = {"read": 2.1, "write": 2.6, "update": 2.4}


def architectures():
    return [
        ts.Arch(
            "glb_rf_16x16",
            "16x16 PEs, 16-bit: DRAM -> 128 KiB GlobalBuffer (16 words/cycle) -> 1 KiB RegFile "
            "per PE -> MAC (the design of issue 14's disagreement)",
            [ts.Level("DRAM", "DRAM", width=64, energy=DRAM_E),
             ts.Level("GlobalBuffer", "smartbuffer_SRAM", width=64, depth=16384, read_bw=16,
                      write_bw=16, energy=GLB_E, area=429745.625),
             ts.Level("RegFile", "smartbuffer_RF", depth=512, instances=256, mesh_x=16,
                      energy=RF_E, area=1419.815)],
            256, 16, [("system", ["DRAM"]), ("chip", ["GlobalBuffer"]),
                      ("PE[0..255]", ["RegFile"])],
            0.315, 417.0),
        ts.Arch(
            "spad_1d_16",
            "2-level, 1-D: DRAM (4 words/cycle read, 2 write) -> 16 PEs in a row, 256-word "
            "scratchpad each -> MAC",
            [ts.Level("DRAM", "DRAM", width=64, read_bw=4, write_bw=2, energy=DRAM_E),
             ts.Level("Scratchpad", "smartbuffer_SRAM", depth=256, instances=16, mesh_x=16,
                      energy=SPAD_E, area=2500.0)],
            16, 16, [("system", ["DRAM"]), ("PE[0..15]", ["Scratchpad"])],
            0.315, 417.0),
        ts.Arch(
            "glb_rf_8x4",
            "3-level, 2-D 8x4 (meshX 8): DRAM -> 16 KiB GlobalBuffer (4 words/cycle) -> "
            "64-word RegFile per PE -> MAC",
            [ts.Level("DRAM", "DRAM", width=64, energy=DRAM_E),
             ts.Level("GlobalBuffer", "smartbuffer_SRAM", width=64, depth=2048, read_bw=4,
                      write_bw=4, energy=GLB_E, area=60000.0),
             ts.Level("RegFile", "smartbuffer_RF", depth=64, instances=32, mesh_x=8,
                      energy=RF_E, area=300.0)],
            32, 8, [("system", ["DRAM"]), ("chip", ["GlobalBuffer"]),
                    ("PE[0..31]", ["RegFile"])],
            0.315, 417.0),
        ts.Arch(
            "cluster_4x4",
            "4-level: DRAM -> 32 KiB GlobalBuffer -> 4 cluster buffers (1-D) -> 4 PEs each "
            "(16 in a row) with a 32-word RegFile -> MAC",
            [ts.Level("DRAM", "DRAM", width=64, energy=DRAM_E),
             ts.Level("GlobalBuffer", "smartbuffer_SRAM", width=64, depth=4096,
                      energy=GLB_E, area=120000.0),
             ts.Level("ClusterBuffer", "smartbuffer_SRAM", depth=512, instances=4, mesh_x=4,
                      read_bw=8, write_bw=8, energy=SPAD_E, area=5000.0),
             ts.Level("RegFile", "smartbuffer_RF", depth=32, instances=16, mesh_x=16,
                      energy=RF_E, area=200.0)],
            16, 16, [("system", ["DRAM"]), ("chip", ["GlobalBuffer"]),
                     ("Cluster[0..3]", ["ClusterBuffer"]), ("PE[0..3]", ["RegFile"])],
            0.315, 417.0),
        ts.Arch(
            "vector_pe_4x4",
            "3-level, 2-D 4x4 PEs with 4 MACs each: DRAM -> 8 KiB GlobalBuffer -> 128-word "
            "RegFile per PE -> 4 MACs",
            [ts.Level("DRAM", "DRAM", width=64, energy=DRAM_E),
             ts.Level("GlobalBuffer", "smartbuffer_SRAM", width=64, depth=1024, read_bw=8,
                      write_bw=8, energy=GLB_E, area=40000.0),
             ts.Level("RegFile", "smartbuffer_RF", depth=128, instances=16, mesh_x=4,
                      energy=RF_E, area=500.0)],
            64, 16, [("system", ["DRAM"]), ("chip", ["GlobalBuffer"]),
                     ("PE[0..15]", ["RegFile"])],
            0.315, 417.0),
    ]


def problems():
    P = ts.Problem
    return [
        P("conv3x3", dict(C=32, K=32, R=3, S=3, N=2, P=14, Q=14)),
        P("conv3x3_s2", dict(C=16, K=32, R=3, S=3, N=2, P=7, Q=7), wstride=2, hstride=2),
        P("conv3x3_dil2", dict(C=16, K=16, R=3, S=3, N=1, P=12, Q=12), wdilation=2,
          hdilation=2),
        P("conv1x1", dict(C=64, K=32, N=4, P=8, Q=8)),
        P("conv7x7_s2", dict(C=3, K=16, R=7, S=7, N=1, P=16, Q=16), wstride=2, hstride=2),
        P("conv5x3_rect", dict(C=8, K=24, R=5, S=3, N=2, P=6, Q=10), wstride=1, hstride=2),
        P("fc", dict(C=256, K=64, N=8)),
        P("matmul", dict(C=48, K=96, N=32)),  # M=N, K=C, N=K in GEMM terms
        P("grouped3x3", dict(G=4, C=8, K=8, R=3, S=3, N=2, P=8, Q=8)),
        P("depthwise3x3", dict(G=32, R=3, S=3, N=2, P=14, Q=14)),
        P("depthwise3x3_s2", dict(G=16, R=3, S=3, N=1, P=8, Q=8), wstride=2, hstride=2),
    ]


# ---------------------------------------------------------------- random mappings

def prime_factors(n):
    out, p = [], 2
    while n > 1:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out


def extent(box, problem, stride, dilation, outer, inner):
    return (box[outer] - 1) * stride + (box[inner] - 1) * dilation + 1


def footprint(problem, box, space):
    g = box["G"]
    if space == "Weights":
        return g * box["C"] * box["K"] * box["R"] * box["S"]
    if space == "Inputs":
        h = extent(box, problem, problem.wstride, problem.wdilation, "P", "R")
        w = extent(box, problem, problem.hstride, problem.hdilation, "Q", "S")
        return box["N"] * g * box["C"] * h * w
    return box["N"] * g * box["K"] * box["P"] * box["Q"]


def tile_boxes(problem, mapping):
    """Per storage level: Π of the factors at the level and inside it."""
    boxes = []
    box = {d: 1 for d in ts.GROUPED_DIMS}
    for lm in reversed(mapping):
        for f in (lm.temporal, lm.spatial_x, lm.spatial_y):
            for d, v in f.items():
                box[d] *= v
        boxes.append(dict(box))
    return list(reversed(boxes))


def fits(arch, problem, mapping):
    boxes = tile_boxes(problem, mapping)
    for level, lm, box in zip(arch.levels, mapping, boxes):
        if level.words is None:
            continue
        keep = SPACES if lm.keep is None else lm.keep
        if sum(footprint(problem, box, s) for s in keep) > level.words:
            return False
    return True


def random_mapping(rng, arch, problem):
    n = len(arch.levels)
    mapping = [ts.LevelMapping() for _ in range(n)]
    # Slots a prime factor may go to, with a weight: temporal at every level
    # (more weight outside, where capacity is unbounded), spatial X/Y where
    # the level fans out.
    slots = []
    for i in range(n):
        slots.append(("T", i, 1.0 + 1.5 * (n - 1 - i) / max(1, n - 1)))
        fx, fy = arch.fanout(i)
        if fx > 1:
            slots.append(("X", i, 2.0))
        if fy > 1:
            slots.append(("Y", i, 2.0))
    used = {(k, i): 1 for k, i, _ in slots if k != "T"}
    dims = list(problem.dims)
    rng.shuffle(dims)
    for d in dims:
        for p in prime_factors(problem.bounds[d]):
            choices = []
            for kind, i, w in slots:
                if kind != "T":
                    limit = arch.fanout(i)[0 if kind == "X" else 1]
                    if used[(kind, i)] * p > limit:
                        continue
                    # A Timeloop spatial entry has one factor per dimension:
                    # a dimension goes along X or along Y at a level, not both.
                    other = mapping[i].spatial_y if kind == "X" else mapping[i].spatial_x
                    if d in other:
                        continue
                choices.append((kind, i, w))
            kind, i, _ = rng.choices(choices, weights=[w for _, _, w in choices])[0]
            lm = mapping[i]
            target = {"T": lm.temporal, "X": lm.spatial_x, "Y": lm.spatial_y}[kind]
            target[d] = target.get(d, 1) * p
            if kind != "T":
                used[(kind, i)] *= p
    for lm in mapping:
        lm.order = [d for d in lm.temporal]
        rng.shuffle(lm.order)
        for attr in ("spatial_x", "spatial_y"):
            items = list(getattr(lm, attr).items())
            rng.shuffle(items)
            setattr(lm, attr, dict(items))
    # Bypass: the outermost level keeps everything; inner levels drop each
    # data space with some probability.
    for i in range(1, n):
        if rng.random() < 0.45:
            keep = {s for s in SPACES if rng.random() > 0.35}
            mapping[i].keep = keep
    return mapping


def valid_random_mapping(rng, arch, problem, tries=4000):
    for _ in range(tries):
        m = random_mapping(rng, arch, problem)
        if fits(arch, problem, m):
            return m
    return None


# ---------------------------------------------------------------- running Timeloop

def run(cmd, cwd, env=None):
    # The binaries load libtimeloop-model.so / libtimeloop-mapper.so from their own directory.
    env = dict(env or os.environ)
    lib_dir = os.path.dirname(cmd[0])
    env["LD_LIBRARY_PATH"] = lib_dir + os.pathsep + env.get("LD_LIBRARY_PATH", "")
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=600)


# Timeloop assumes every PE array has neighbour-to-neighbour links and moves
# data over them ("link transfers") where a PE's new tile equals what a
# neighbour held a step before (nest-analysis.cpp; its own FIXME says the
# connectivity should come from the architecture). trainloop's architectures
# declare networks from a parent level only, so the reference run switches
# them off with Timeloop's own switch; the default run is kept for comparison.
NO_LINKS = {"TIMELOOP_DISABLE_LINK_TRANSFERS": "1"}


def run_model(timeloop, files, workdir, extra_env=None):
    env = dict(os.environ, **(extra_env or {}))
    stats = os.path.join(workdir, "timeloop-model.stats.txt")
    if os.path.exists(stats):
        os.remove(stats)
    r = run([os.path.join(timeloop, "timeloop-model")] + files, workdir, env)
    if r.returncode != 0 or not os.path.exists(stats):
        return None, r.stdout
    with open(stats) as f:
        return parse_stats(f.read()), r.stdout


def run_model_both(timeloop, files, workdir):
    """The reference summary (no link transfers) and, when it differs, the
    default run's."""
    reference, log = run_model(timeloop, files, workdir, NO_LINKS)
    if reference is None:
        return None, log
    default, _ = run_model(timeloop, files, workdir)
    ref = summary(reference)
    if default is not None:
        other = summary(default)
        if other != ref:
            ref["default_run"] = {k: other[k] for k in ("cycles", "levels", "networks")}
    ref["timeloop"] = "v3.0.3 (6b41058f), TIMELOOP_DISABLE_LINK_TRANSFERS=1"
    return ref, log


MAPPER_YAML = """mapper:
  optimization-metrics: [edp]
  live-status: false
  num-threads: 1
  search-size: {search}
  timeout: {timeout}
  victory-condition: 0
  algorithm: random
  max-permutations-per-if-visit: 4
"""


def run_mapper(timeloop, files, workdir, seed):
    with open(os.path.join(workdir, "mapper.yaml"), "w") as f:
        f.write(MAPPER_YAML.format(search=400, timeout=4000))
    env = dict(os.environ, TIMELOOP_MAPPER_SEED=str(seed))
    r = run([os.path.join(timeloop, "timeloop-mapper")] + files + ["mapper.yaml"], workdir, env)
    out = os.path.join(workdir, "timeloop-mapper.map.yaml")
    if r.returncode != 0 or not os.path.exists(out):
        return None, r.stdout
    with open(out) as f:
        return f.read(), r.stdout


# ---------------------------------------------------------------- the corpus

def summary(stats):
    """The JSON stored per case: what the tests compare."""
    levels = []
    for level in stats["levels"]:
        spaces = {}
        for s, v in level["spaces"].items():
            spaces[s] = {k: v[k] for k in ("capacity", "instances", "reads", "fills", "updates",
                                           "temporal_reductions", "energy_pj") if k in v}
        levels.append({"name": level["name"], "cycles": level.get("cycles"), "spaces": spaces})
    networks = {}
    for name, per_space in stats["networks"].items():
        networks[name] = {s: {k: v.get(k) for k in ("fanout", "multicast", "link_transfers",
                                                      "spatial_reductions", "ingresses",
                                                      "energy_pj")}
                          for s, v in per_space.items()}
    a = stats["arithmetic"]
    return {
        "cycles": stats.get("cycles"),
        "computes": a.get("computes"),
        "utilization": stats.get("utilization"),
        "energy_uj": stats.get("energy_uj"),
        "mac": {"energy_pj": a.get("energy_pj"), "area_um2": a.get("area_um2")},
        "levels": levels,
        "networks": networks,
    }


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def generate_arch(args, arch, rng, out_root):
    arch_dir = os.path.join(out_root, arch.name)
    os.makedirs(arch_dir, exist_ok=True)
    write(os.path.join(arch_dir, "arch.yaml"), ts.arch_yaml(arch))
    write(os.path.join(arch_dir, "ERT.yaml"), ts.ert_yaml(arch))
    write(os.path.join(arch_dir, "ART.yaml"), ts.art_yaml(arch))
    arch_files = [os.path.join(arch_dir, f) for f in ("arch.yaml", "ERT.yaml", "ART.yaml")]
    layers = problems()
    written = 0
    rejected = 0
    case_index = 0
    # Random mappings, round-robin over the layers.
    while written < args.per_arch and rejected < 20 * args.per_arch:
        problem = layers[case_index % len(layers)]
        case_index += 1
        mapping = valid_random_mapping(rng, arch, problem)
        if mapping is None:
            rejected += 1
            continue
        name = f"r{written:03d}_{problem.name}"
        case_text = (ts.problem_yaml(problem) +
                     ts.mapping_yaml(arch, problem, mapping,
                                     comment=f"random mapping {written} (seed {args.seed})"))
        with tempfile.TemporaryDirectory() as tmp:
            write(os.path.join(tmp, "case.yaml"), case_text)
            stats, log = run_model_both(args.timeloop, arch_files + ["case.yaml"], tmp)
        if stats is None:
            rejected += 1
            if args.verbose:
                print(f"  rejected by timeloop-model: {log[-400:]}", file=sys.stderr)
            continue
        write(os.path.join(arch_dir, name + ".yaml"), case_text)
        with open(os.path.join(arch_dir, name + ".json"), "w") as f:
            json.dump(stats, f, indent=1, sort_keys=True)
            f.write("\n")
        written += 1
    # timeloop-mapper's best mappings for some layers.
    mapped = 0
    for k, problem in enumerate(layers):
        if mapped >= args.mapper:
            break
        with tempfile.TemporaryDirectory() as tmp:
            write(os.path.join(tmp, "problem.yaml"), ts.problem_yaml(problem))
            text, log = run_mapper(args.timeloop, arch_files + ["problem.yaml"], tmp,
                                   args.seed + k)
            if text is None:
                print(f"  {arch.name}/{problem.name}: timeloop-mapper found nothing: "
                      f"{log[-300:]}", file=sys.stderr)
                continue
            case_text = (ts.problem_yaml(problem) +
                         f"# timeloop-mapper's best mapping (search-size 400, seed "
                         f"{args.seed + k})\n" + text)
            write(os.path.join(tmp, "case.yaml"), case_text)
            stats, log = run_model_both(args.timeloop, arch_files + ["case.yaml"], tmp)
        if stats is None:
            print(f"  {arch.name}/{problem.name}: timeloop-model rejected the mapper's "
                  f"mapping: {log[-300:]}", file=sys.stderr)
            continue
        name = f"m{mapped:02d}_{problem.name}"
        write(os.path.join(arch_dir, name + ".yaml"), case_text)
        with open(os.path.join(arch_dir, name + ".json"), "w") as f:
            json.dump(stats, f, indent=1, sort_keys=True)
            f.write("\n")
        mapped += 1
    return written, mapped, rejected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeloop", required=True,
                    help="directory with timeloop-model and timeloop-mapper")
    ap.add_argument("--out", required=True, help="corpus directory (replaced)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--per-arch", type=int, default=60, help="random mappings per architecture")
    ap.add_argument("--mapper", type=int, default=6,
                    help="timeloop-mapper cases per architecture")
    ap.add_argument("--only", help="generate just this architecture")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    if os.path.isdir(args.out) and not args.only:
        shutil.rmtree(args.out)
    os.makedirs(args.out, exist_ok=True)
    total = 0
    for arch in architectures():
        if args.only and arch.name != args.only:
            continue
        rng = random.Random(f"{args.seed}/{arch.name}")
        written, mapped, rejected = generate_arch(args, arch, rng, args.out)
        total += written + mapped
        print(f"{arch.name}: {written} random + {mapped} mapper cases "
              f"({rejected} random mappings rejected)")
    print(f"{total} cases in {args.out}")


if __name__ == "__main__":
    main()
