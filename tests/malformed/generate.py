#!/usr/bin/env python3
"""Generates the malformed-input corpus (tests/malformed/cases/) and its manifest.

Every case is an input trainloop must refuse the way the developers' guide
asks: exit code 2, a message naming the file, the line and the key at fault,
within a time bound, and (under the sanitizer build) without a sanitizer
report. run_corpus.py runs them; ctest runs run_corpus.py per kind.

The cases are mutations of small valid documents of every input kind
(networks, architectures, component libraries, sparsity profiles and their
.npy masks, mappings, mapping constraints, sweeps, Timeloop inputs, results
databases, command-line values). For YAML, the base document is composed
with PyYAML to find every scalar value and every mapping key with its line
and key path; each is then mutated by a rule of its type (a count gets a
negative, a non-integer, a value past 2^63, one past 2^53, ...; a key gets
misspelled or repeated). The expected line and key are the mutated node's,
except where `EXPECT_ELSEWHERE` says a reader reports them at another place
on purpose.

ctest generates the corpus into the build tree before running it (fixture
corpus_generate); nothing it writes is tracked. By hand:
    python3 tests/malformed/generate.py [--out DIR]   # default tests/malformed/cases
It rewrites DIR entirely (deterministic: no randomness, sorted output).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import struct
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CASES = HERE / "cases"


@dataclass
class Expect:
    exit: int = 2
    file: str | None = None  # the file the message must name (basename)
    line: int | None = None  # ... at this line ("file:LINE")
    key: str | None = None  # the key path the message must name
    contains: list[str] = field(default_factory=list)  # more text the message must hold
    absent: list[str] = field(default_factory=list)  # text it must not hold (leaks)


@dataclass
class Case:
    name: str  # kind/label, unique
    files: dict[str, bytes]  # relative path -> content, written into the case directory
    cmd: list[str]  # {case}: the case directory, {tmp}: a fresh directory, {data}: repo root
    expect: Expect
    setup: list[str] = field(default_factory=list)  # run_corpus.py actions, e.g. "fifo:x.npy"


# Keys the layers of NETWORK_SEQUENCE share but read by their type: their
# cases are kept per layer, not one for the list.
TYPED_ENTRY_KEYS = {"groups", "out_features"}
CASES_OUT: list[Case] = []
SEEN_SHAPES: set[str] = set()


def add(case: Case) -> None:
    # Entries of one list are alike: one case per rule and key path with the
    # list indexes left out (the first entry's) keeps the corpus small.
    import re
    shape = re.sub(r"\[\d+\]", "[]", case.name)
    if case.name.startswith("network_layers/") and last_key(case.name) in TYPED_ENTRY_KEYS:
        shape = case.name  # `groups` of a matmul, a shuffle and an fc are read apart
    if shape in SEEN_SHAPES:
        return
    SEEN_SHAPES.add(shape)
    CASES_OUT.append(case)


# ---------------------------------------------------------------------------
# Base documents (small and valid). Each names the file it is written to.

COMPONENTS = """\
components: corpus_lib
technology: 45nm
description: a small library for the malformed-input corpus
entries:
  - name: fp32_mac
    class: mac
    word_bits: 32
    mac_pj: 4.6
    leakage_mw: 0.0
    area_um2: 11884
  - name: dram
    class: dram
    word_bits: 32
    read_pj: 640
    write_pj: 640
    leakage_mw: 0.0
    area_um2: 0
  - name: sram
    class: sram
    description: on-chip SRAM
    table:
      - capacity: 32 KB
        word_bits: 32
        read_pj: 10.0
        write_pj: 10.0
        leakage_mw: 0.0
        area_um2: 4277399.13
      - {capacity: 128 KB, word_bits: 32, read_pj: 20.0, write_pj: 20.0, leakage_mw: 0.0, area_um2: 17109596.5}
  - name: regfile
    class: regfile
    table:
      - {capacity: 1 KB, word_bits: 32, read_pj: 4.24, write_pj: 4.24, leakage_mw: 0.0, area_um2: 198004.71}
  - name: array_network
    class: network
    word_bits: 32
    hop_pj: 2.4
    leakage_mw: 0.0
    area_um2: 0
"""

ARCH = """\
architecture: corpus_arch
description: a 4x4 array for the malformed-input corpus
clock_ghz: 1.0
component_library: ../lib/components.yaml
pe_array:
  rows: 4
  columns: 4
  macs_per_pe: 1
  datatype: fp32
storage:
  - name: DRAM
    class: dram
    capacity: unbounded
    word_bits: 32
    data_spaces: [weights, inputs, outputs]
  - name: GLB
    class: sram
    capacity: 64 KB
    word_bits: 32
    read_bandwidth: 16
    write_bandwidth: 16
    data_spaces: [weights, inputs, outputs]
    instances: 1
  - name: RF
    class: regfile
    capacity: 1 KB
    word_bits: 32
    data_spaces: [weights, inputs, outputs]
    per_pe: true
networks:
  - name: row_broadcast
    axis: x
    kind: broadcast
    data_spaces: [weights, inputs, outputs]
    parent: GLB
    child: RF
    component: array_network
sparse:
  formats:
    - level: GLB
      data_space: weights
      format: bitmap
  skipping:
    - level: compute
      target: outputs
      condition_on: weights
      phases: [fw, bw]
  gating:
    - level: compute
      target: outputs
      condition_on: inputs
      saves: mac
  load_balancing:
    scheme: half_tile_pairing
    axis: x
"""

NETWORK = """\
network: corpus_net
description: a small convolutional network for the malformed-input corpus
inputs:
  - name: image
    channels: 3
    height: 8
    width: 8
layers:
  - name: conv1
    type: conv
    inputs: [image]
    out_channels: 8
    kernel: 3
    stride: 1
    padding: 1
    dilation: 1
    groups: 1
  - name: relu1
    type: relu
    inputs: [conv1]
  - name: pool1
    type: maxpool
    inputs: [relu1]
    kernel: 2
    stride: 2
  - name: fc1
    type: fc
    inputs: [pool1]
    out_features: 10
"""

# The newer layer types: an LSTM over a sequence input that needs a gradient,
# a grouped matmul, a channel shuffle, a grouped fc and a Clos cascade
# (docs/workload_format.md). Valid: lstm1 is 8x5x1, proj 12x5x1, flat 20 (60
# features in 4 groups), clos 12 (Ri 4 divides 20, Ro 3 divides 12).
NETWORK_SEQUENCE = """\
network: corpus_seq
description: recurrent, grouped and Clos layers for the malformed-input corpus
inputs:
  - name: frames
    channels: 16
    height: 5
    gradient: true
layers:
  - name: lstm1
    type: lstm
    inputs: [frames]
    hidden_size: 8
    sequence_length: 5
  - name: proj
    type: matmul
    inputs: [lstm1]
    out_features: 12
    groups: 2
  - name: mix
    type: shuffle
    inputs: [proj]
    groups: 3
  - name: flat
    type: fc
    inputs: [mix]
    out_features: 20
    groups: 4
  - name: clos
    type: clos_fc
    inputs: [flat]
    out_features: 12
    input_routers: 4
    middle_routers: 2
    output_routers: 3
"""

PROFILE = """\
sparsity_profile: corpus_profile
description: densities for the malformed-input corpus
model: uniform
rules:
  - tensors: x
    density: 0.5
  - networks: corpus_net
    layers: conv1
    tensors: w
    schedule:
      interpolation: linear
      points:
        - iteration: 0
          density: 1.0
        - {iteration: 100, density: 0.25}
  - networks: corpus_net
    layers: fc1
    tensors: w
    model:
      name: n_m
      n: 2
      m: 4
  - layers: conv1
    tensors: w
    density: 0.8
    model:
      name: clustered
      unit: filter
      cv: 0.5
"""

PROFILE_WITH_MASK = """\
sparsity_profile: corpus_mask_profile
description: a mask for the malformed-input corpus
rules:
  - networks: corpus_net
    layers: fc1
    tensors: w
    model:
      name: mask
      file: mask.npy
"""

MAPPING = """\
for:
  arch: ../lib/arch.yaml
  workload: ../lib/net.yaml
  layer: fc1
  phase: fw
  batch: 4
mapping:
  - level: DRAM
    temporal: [C8, N4]
  - level: GLB
    temporal: [C2]
    spatial_x: [K2]
    spatial_y: [N1]
  - level: RF
    temporal: [C8, K5]
"""

CONSTRAINTS = """\
mapping_constraints: corpus_constraints
for:
  arch: ../lib/arch.yaml
spatial:
  x:
    dims: [K]
    factors:
      K: 2
  y:
    dims: [N]
levels:
  GLB:
    factors:
      C: 2
    order: [C, K]
    keep: [weights, inputs]
  RF:
    factors:
      K:
        min: 1
        max: 4
"""

SWEEP = """\
sweep: corpus_sweep
description: a sweep for the malformed-input corpus
architectures:
  - ../lib/arch.yaml
  - file: ../lib/arch.yaml
    name: corpus_arch_small
    set:
      pe_array.rows: 2
networks: [../lib/net.yaml]
batches: [4]
sparsity: [dense]
dataflows: ["K,N"]
objectives: [edp]
phases: all
search:
  strategy: random
  budget: 50
  seed: 1
exclude:
  - architecture: corpus_arch_small
    batch: 4
"""

TIMELOOP_ARCH = (ROOT / "tests/timeloop/cases/fc/arch.yaml").read_text()
# With Sparseloop's densities, so the corpus mutates them too.
TIMELOOP_PROBLEM = (ROOT / "tests/timeloop/cases/fc/problem.yaml").read_text().replace(
    "  instance:\n",
    "  instance:\n    densities:\n"
    "      Weights: {distribution: hypergeometric, density: 0.5}\n      Inputs: 0.6\n", 1)
TIMELOOP_MAP = (ROOT / "tests/timeloop/cases/fc/map.yaml").read_text()
TIMELOOP_ERT = (ROOT / "tests/timeloop/cases/fc/ERT.yaml").read_text()
# Sparseloop's sparse optimizations for the fc case: every kind of entry the
# reader takes (engine/timeloop/timeloop_sparse_reader.hpp).
TIMELOOP_SPARSE = """sparse_optimizations:
  targets:
  - name: DRAM
    representation-format:
      data-spaces:
      - name: Weights
        ranks:
        - format: UOP
          payload-word-bits: 8
        - format: CP
          metadata-word-bits: 8
  - name: GlobalBuffer
    action-optimization:
    - type: skipping
      options:
      - target: Inputs
        condition-on: [Weights]
  - name: MACC
    compute-optimization:
    - type: gating
"""

# ---------------------------------------------------------------------------
# Walking a YAML document: every scalar value and mapping key, with its key
# path (as trainloop prints it), line, and byte span in the text.


@dataclass
class Slot:
    path: str
    line: int  # 1-based
    start: int  # character offsets of the node's text
    end: int
    text: str
    is_key: bool
    flow: bool  # inside a flow collection ({...} or [...])
    value_end: int = 0  # for keys: where the entry's value ends
    value_text: str = ""
    parent_line: int = 0  # for keys: the line of the mapping holding it


def child(path: str, key: str) -> str:
    return key if not path else f"{path}.{key}"


def slots_of(text: str) -> list[Slot]:
    root = yaml.compose(text)
    out: list[Slot] = []

    def walk(node, path: str, flow: bool) -> None:
        if isinstance(node, yaml.MappingNode):
            inner_flow = flow or bool(node.flow_style)
            for key, value in node.value:
                kpath = child(path, key.value)
                slot = Slot(kpath, key.start_mark.line + 1, key.start_mark.index,
                            key.end_mark.index, key.value, True, inner_flow)
                slot.parent_line = node.start_mark.line + 1
                slot.value_end = value.end_mark.index
                slot.value_text = text[value.start_mark.index:value.end_mark.index]
                out.append(slot)
                walk(value, kpath, inner_flow)
        elif isinstance(node, yaml.SequenceNode):
            inner_flow = flow or bool(node.flow_style)
            for i, item in enumerate(node.value):
                walk(item, f"{path}[{i}]", inner_flow)
        elif isinstance(node, yaml.ScalarNode):
            if node.start_mark.index == node.end_mark.index:
                return  # an empty value
            out.append(Slot(path, node.start_mark.line + 1, node.start_mark.index,
                            node.end_mark.index, node.value, False, flow))

    walk(root, "", False)
    return out


def replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


# ---------------------------------------------------------------------------
# Mutation rules by the type of the value (inferred from the base text and
# refined per key below).

COUNT_MUTATIONS = [
    ("negative", "-1"),
    ("fraction", "1.5"),
    ("past_int64", "99999999999999999999"),
    ("past_2_53", "9007199254740993"),
    ("hex", "0x10"),
    ("word", "many"),
    ("map", "{x: 1}"),
]
NUMBER_MUTATIONS = [
    ("negative", "-1"),
    ("nan", "nan"),
    ("inf", "inf"),
    ("huge", "1e999"),
    ("word", "lots"),
    ("list", "[1]"),
]
BOOL_MUTATIONS = [("maybe", "maybe"), ("number", "2"), ("list", "[true]")]
TEXT_MUTATIONS = [("list", "[a, b]"), ("map", "{x: 1}")]
CHOICE_MUTATIONS = TEXT_MUTATIONS + [("unknown", "no_such_choice")]
LEVEL_REF_MUTATIONS = TEXT_MUTATIONS + [("unknown", "NoSuchLevel")]

# Keys whose value is read as a real number (the others that look numeric are counts).
NUMBER_KEYS = {"clock_ghz", "read_bandwidth", "write_bandwidth", "bandwidth", "mac_pj", "read_pj",
               "write_pj", "update_pj", "hop_pj", "leakage_mw", "area_um2", "density", "cv",
               "hop_energy_pj", "energy", "area"}
# Keys whose value may also be a [h, w] pair (a list is not an error there).
EXTENT_KEYS = {"kernel", "stride", "padding", "dilation"}
# Keys whose value is one of a fixed set of names.
CHOICE_KEYS = {"type", "class", "datatype", "axis", "kind", "format", "scheme", "phase", "model",
               "name@model", "unit", "strategy", "objectives", "phases", "data_spaces", "keep",
               "tensors", "data_space", "target", "condition_on", "dataflows"}
# Keys naming a storage level.
LEVEL_KEYS = {"level", "parent", "child"}
# Keys whose value is free text or a name anything may be: only structural mutations.
# Keys whose value may be one name or a list of them (a list is not an error).
NAME_OR_LIST_KEYS = {"networks", "layers", "tensors"}
FREE_TEXT_KEYS = {"description", "source", "technology", "network", "architecture", "components",
                  "sparsity_profile", "sweep", "mapping_constraints", "networks", "layers"}


def last_key(path: str) -> str:
    tail = path.rsplit(".", 1)[-1]
    return tail.split("[", 1)[0]


def is_int(text: str) -> bool:
    try:
        int(text)
        return True
    except ValueError:
        return False


def is_float(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def value_mutations(slot: Slot) -> list[tuple[str, str]]:
    key = last_key(slot.path)
    in_list = slot.path.endswith("]")
    if key in NUMBER_KEYS and is_float(slot.text):
        return NUMBER_MUTATIONS
    if is_int(slot.text):
        if key == "seed":  # any 64-bit integer >= 0 is a seed, not a count
            return [m for m in COUNT_MUTATIONS if m[0] != "past_2_53"]
        return COUNT_MUTATIONS
    if slot.text in ("true", "false"):
        return BOOL_MUTATIONS
    if key in NAME_OR_LIST_KEYS and not in_list:
        return [("map", "{x: 1}")]
    if key in LEVEL_KEYS:
        return LEVEL_REF_MUTATIONS
    if key in CHOICE_KEYS:
        return CHOICE_MUTATIONS if not in_list else [("unknown", "no_such_choice")]
    if in_list:
        return [("map", "{x: 1}")]
    return TEXT_MUTATIONS


def misspelled(key: str) -> str:
    return key[:-1] + "x" + key[-1] if len(key) > 1 else key + "x"


# Where a reader reports a mutation somewhere else than the mutated node, on
# purpose: (kind, path regex, rule) -> ("line-of", other path) or None to skip.
SKIP: dict[str, set[str]] = {}


# Required keys of one letter: a misspelling of them is too short for a
# did-you-mean, so the error is the missing key, at the mapping that lacks it.
REQUIRED_SHORT_KEYS: dict[str, set[str]] = {"sparsity": {r"rules\[\d+\]\.model\.(n|m)"}}


def matches(patterns: set[str], path: str) -> bool:
    import re
    return any(re.fullmatch(p, path) for p in patterns)


def skipped(kind: str, path: str, rule: str) -> bool:
    import re
    for pattern in SKIP.get(kind, set()):
        kpat, _, rpat = pattern.partition(" @ ")
        if re.fullmatch(kpat, path) and (not rpat or re.fullmatch(rpat, rule)):
            return True
    return False


def yaml_cases(kind: str, filename: str, base: str, cmd: list[str], extra_files=None,
               expect_file: str | None = None, key_rules=True, value_rules=True) -> None:
    """Every value and key mutation of `base` (written as `filename`)."""
    extra_files = extra_files or {}
    expect_file = expect_file or filename
    for slot in slots_of(base):
        if slot.is_key:
            if not key_rules or skipped(kind, slot.path, "key"):
                continue
            # A misspelled key: unknown (or "did you mean"), at the key.
            parent = slot.path.rsplit(".", 1)[0] if "." in slot.path else ""
            wrong = misspelled(slot.text)
            if not skipped(kind, slot.path, "misspelled"):
                expect = Expect(file=expect_file, line=slot.line, key=child(parent, wrong),
                                contains=[wrong])
                if len(slot.text) == 1 and matches(REQUIRED_SHORT_KEYS.get(kind, set()),
                                                   slot.path):
                    # Too short to suggest: reported as missing, at its mapping.
                    expect = Expect(file=expect_file, line=slot.parent_line, key=parent,
                                    contains=[f"missing key `{slot.text}`"])
                add(Case(f"{kind}/key_misspelled/{slot.path}",
                         {filename: replace(base, slot.start, slot.end, wrong).encode(),
                          **extra_files}, cmd, expect))
            # The same key twice in one mapping: refused at the second.
            if not skipped(kind, slot.path, "duplicate") and "\n" not in slot.value_text:
                if slot.flow:
                    dup = f", {slot.text}: {slot.value_text}"
                    line = slot.line + base[slot.start:slot.value_end].count("\n")
                else:
                    indent = slot.start - base.rfind("\n", 0, slot.start) - 1
                    if base[slot.start - 2:slot.start] == "- ":
                        indent = indent  # the first key of a list item
                    dup = "\n" + " " * indent + f"{slot.text}: {slot.value_text}"
                    line = slot.line + base[slot.start:slot.value_end].count("\n") + 1
                text = base[:slot.value_end] + dup + base[slot.value_end:]
                add(Case(f"{kind}/key_duplicate/{slot.path}", {filename: text.encode(),
                                                               **extra_files}, cmd,
                         Expect(file=expect_file, line=line, key=slot.path,
                                contains=["given twice"])))
            continue
        if not value_rules:
            continue
        for rule, new in value_mutations(slot):
            if skipped(kind, slot.path, rule):
                continue
            add(Case(f"{kind}/value_{rule}/{slot.path}",
                     {filename: replace(base, slot.start, slot.end, new).encode(), **extra_files},
                     cmd, Expect(file=expect_file, line=slot.line, key=slot.path)))


def whole_file_cases(kind: str, filename: str, base: str, cmd: list[str], extra_files=None,
                     expect_file: str | None = None) -> None:
    """Mutations of the whole file: empty, binary, syntax, structure, size."""
    extra_files = extra_files or {}
    expect_file = expect_file or filename
    lines = base.splitlines(keepends=True)
    first_key = next(slot for slot in slots_of(base) if slot.is_key)
    after_colon = base.index(":", first_key.end) + 1
    variants = {
        "empty": (b"", None),
        "only_comment": (b"# nothing here\n", None),
        "top_level_list": (b"- a\n- b\n", 1),
        "top_level_scalar": (b"just some words\n", 1),
        "binary": (bytes(range(256)) * 4, 1),  # NUL, a control character, comes first
        "latin1": (base.encode()[:40] + b"caf\xe9\n" + base.encode()[40:], None),
        "nul_bytes": (base.encode()[:30] + b"\x00\x00" + base.encode()[30:], None),
        "escape_character": (base.encode()[:first_key.start] + b"\x1b[31m" +
                             base.encode()[first_key.start:], first_key.line),
        "tab_indent": (base.replace("\n  ", "\n\t", 1).encode(), None),
        "unclosed_flow": ((base[:after_colon] + " [" + base[after_colon:]).encode(), None),
        "unclosed_quote": (base.replace(":", ': "', 3).encode(), None),
        "truncated_half": ("".join(lines[: len(lines) // 2]).encode() + b"  - {name: ", None),
        "deep_nesting": (b"x: " + b"[" * 5000 + b"]" * 5000 + b"\n", 1),
        "alias_bomb": (("a: &a [x, x, x, x, x, x, x, x, x, x]\n" +
                        "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, "
                                f"*{p}, *{p}]\n"
                                for p, c in zip("abcdefgh", "bcdefghi"))).encode(), 1),
        "long_line": (base.encode() + b"x: " + b"y" * 20000 + b"\n", None),
    }
    for name, (content, line) in variants.items():
        add(Case(f"{kind}/file_{name}", {filename: content, **extra_files}, cmd,
                 Expect(file=expect_file, line=line)))


# ---------------------------------------------------------------------------
# .npy masks


def npy(header: str, data: bytes, version: int = 1, magic: bytes = b"\x93NUMPY") -> bytes:
    h = header.encode("latin1")
    pad = (64 - (len(magic) + 2 + (2 if version == 1 else 4) + len(h) + 1) % 64) % 64
    h = h + b" " * pad + b"\n"
    size = struct.pack("<H", len(h)) if version == 1 else struct.pack("<I", len(h))
    return magic + bytes([version, 0]) + size + h + data


def npy_cases() -> None:
    good_header = "{'descr': '|b1', 'fortran_order': False, 'shape': (10, 392), }"
    good = npy(good_header, bytes([1, 0] * 1960))
    lib = lib_files()
    cmd = ["spec", "check", "{case}/profile.yaml"]
    variants = {
        "bad_magic": npy(good_header, bytes(3920), magic=b"\x93NUMPZ"),
        "version_9": good[:6] + b"\x09" + good[7:],
        "header_past_end": good[:8] + struct.pack("<H", 65000) + good[10:],
        "dtype_float": npy("{'descr': '<f4', 'fortran_order': False, 'shape': (10, 392), }",
                           bytes(3920 * 4)),
        "dtype_missing": npy("{'fortran_order': False, 'shape': (10, 392), }", bytes(3920)),
        "fortran_maybe": npy("{'descr': '|b1', 'fortran_order': Maybe, 'shape': (10, 392), }",
                             bytes(3920)),
        "shape_overflow": npy("{'descr': '|b1', 'fortran_order': False, "
                              "'shape': (1099511627776, 1099511627776, 1099511627776), }",
                              bytes(64)),
        "shape_negative": npy("{'descr': '|b1', 'fortran_order': False, 'shape': (-10, 392), }",
                              bytes(3920)),
        "shape_unclosed": npy("{'descr': '|b1', 'fortran_order': False, 'shape': (10, 392, }",
                              bytes(3920)),
        "shape_empty": npy("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", bytes(1)),
        "truncated_data": good[:-100],
        "extra_data": good + bytes(100),
        "empty_file": b"",
        "only_magic": b"\x93NUMPY",
        "text_file": b"this is not a mask\n",
        "huge_dimension": npy("{'descr': '|b1', 'fortran_order': False, "
                              "'shape': (99999999999999999999, 1), }", bytes(10)),
    }
    for name, content in variants.items():
        add(Case(f"npy/{name}", {"profile.yaml": PROFILE_WITH_MASK.encode(), "mask.npy": content,
                                 **lib}, cmd,
                 Expect(file="profile.yaml", line=9, key="rules[0].model.file",
                        contains=["mask.npy"])))
    # Paths that are not a regular file: each must end quickly with a located error.
    for name, path, setup in [
        ("dev_zero", "/dev/zero", []),
        ("dev_urandom", "/dev/urandom", []),
        ("directory", ".", []),
        ("empty_path", '""', []),
        ("missing", "nowhere.npy", []),
        ("fifo", "fifo.npy", ["fifo:fifo.npy"]),
        ("symlink_loop", "loop.npy", ["symlink:loop.npy:loop.npy"]),
        ("dangling_symlink", "dangling.npy", ["symlink:dangling.npy:gone.npy"]),
    ]:
        text = PROFILE_WITH_MASK.replace("file: mask.npy", f"file: {path}")
        add(Case(f"npy/path_{name}", {"profile.yaml": text.encode(), **lib}, cmd,
                 Expect(file="profile.yaml", line=9, key="rules[0].model.file"), setup))


# ---------------------------------------------------------------------------
# Results databases


def migrations() -> list[str]:
    """The schema's migrations, in order, as engine/store/schema.cpp lists them."""
    text = (ROOT / "engine/store/schema.cpp").read_text()
    out, at = [], 0
    while (start := text.find('R"sql(', at)) >= 0:
        start += len('R"sql(')
        at = text.index(')sql"', start)
        out.append(text[start:at])
    return out


def make_db(path: Path, mutate) -> bytes:
    """A small database of the current schema: rows written at version 1, then
    migrated the way trainloop migrates an older file."""
    if path.exists():
        path.unlink()
    steps = migrations()
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 512")
    db.executescript(steps[0])
    db.execute("INSERT INTO meta VALUES ('tool_version', 'corpus')")
    db.execute("INSERT INTO architectures VALUES (1, 'a', 'h1', 'architecture: a', 1.0, 4, 4)")
    db.execute("INSERT INTO networks VALUES (1, 'n', 'h2', 'network: n')")
    db.execute("INSERT INTO sparsity_profiles VALUES (1, 'dense', 'h3', 'sparsity_profile: d')")
    db.execute("INSERT INTO sweeps VALUES (1, 's', 'h4', 'sweep: s', 'corpus', 1)")
    db.execute("INSERT INTO points (id, sweep_id, idx, arch_id, network_id, batch, sparsity_id, "
               "dataflow, objective, search, budget, seed, phases, status, evaluations, "
               "layer_phases) VALUES (1, 1, 0, 1, 1, 4, 1, 'K,N', 'edp', 'random', 10, 1, "
               "'fw,bw,wu', 'done', 10, 1)")
    db.execute("INSERT INTO phase_totals VALUES (1, 'fw', 1, 100, 50.0, 40, 40, 0)")
    db.execute("INSERT INTO phase_totals VALUES (1, 'step', 1, 100, 50.0, 40, 40, 0)")
    for step in steps[1:]:
        db.executescript(step)
    db.execute(f"PRAGMA user_version = {len(steps)}")
    db.commit()
    mutate(db)
    db.commit()
    db.close()
    data = path.read_bytes()
    path.unlink()
    return data


def db_cases() -> None:
    tmp = HERE / "_tmp.db"

    def drop(table):
        return lambda db: db.execute(f"DROP TABLE {table}")

    def execute(sql):
        return lambda db: db.executescript(sql)

    intact = make_db(tmp, lambda db: None)
    variants = {
        "dropped_results": (make_db(tmp, drop("results")), "results"),
        "dropped_phase_totals": (make_db(tmp, drop("phase_totals")), "phase_totals"),
        "dropped_meta": (make_db(tmp, drop("meta")), "meta"),
        "dropped_index": (make_db(tmp, execute("DROP INDEX points_by_network")),
                          "points_by_network"),
        "dangling_arch": (make_db(tmp, execute(
            "PRAGMA foreign_keys = OFF; UPDATE points SET arch_id = 99")), "architectures"),
        "newer_version": (make_db(tmp, execute("PRAGMA user_version = 99")), "newer"),
        "foreign_db": (make_db(tmp, lambda db: [db.execute(f"DROP TABLE {t}") for t in [
            "phase_totals", "results", "mappings", "points", "sweeps", "sparsity_profiles",
            "networks", "architectures", "meta"]] + [db.execute("CREATE TABLE x (y)"),
                                                   db.execute("PRAGMA user_version = 0")]),
                       "not a trainloop"),
        "truncated": (intact[: len(intact) // 2], None),
        "garbage_pages": (intact[:1024] + bytes([0xAB]) * (len(intact) - 1024), None),
        "not_sqlite": (b"this is a text file, not a database\n" * 20, "not an SQLite"),
        "empty_file": (b"", None),
    }
    dangling_point = make_db(tmp, execute(
        "PRAGMA foreign_keys = OFF; UPDATE points SET arch_id = 99"))
    for name, (content, text) in variants.items():
        contains = [text] if text and name not in ("dangling_arch",) else []
        check_expect = Expect(file="bad.db", contains=contains)
        if name == "dangling_arch":
            check_expect = Expect(file="bad.db", contains=["architectures"])
        if name != "empty_file":
            add(Case(f"db/check_{name}", {"bad.db": content}, ["db", "check", "{case}/bad.db"],
                     check_expect))
        if name not in ("dropped_results", "dropped_meta", "dropped_index"):  # summary needs none
            add(Case(f"db/query_{name}", {"bad.db": content},
                     ["query", "--db", "{case}/bad.db", "summary"],
                     Expect(file="bad.db", contains=contains)))
        if name not in ("dangling_arch",):
            add(Case(f"db/merge_{name}", {"bad.db": content, "good.db": intact},
                     ["db", "merge", "{tmp}/out.db", "{case}/good.db", "{case}/bad.db"],
                     Expect(file="bad.db", contains=contains, absent=["out.db:"])))
    # Refused or failing --sql statements, and the limits.
    sql_cases = {
        "write": ("DELETE FROM points", "read-only"),
        "two_statements": ("SELECT 1; SELECT 2", "more than one"),
        "syntax": ("SELEC 1", "cannot prepare"),
        "empty": ("   ", "empty statement"),
        "runtime_overflow": ("SELECT abs(-9223372036854775807 - 1)", "failed"),
        "attach_missing": ("ATTACH DATABASE '/nonexistent/x.db' AS x", None),
        "no_such_table": ("SELECT * FROM nothing_here", "no such table"),
        # What reaches past the database (issue 63: a pointer into the process).
        "fts3_tokenizer": ("SELECT hex(fts3_tokenizer('simple'))", "not available to --sql"),
        "fts3_tokenizer_set": ("SELECT fts3_tokenizer('x', x'0000000000000000')",
                               "not available to --sql"),
        "load_extension": ("SELECT load_extension('libc.so.6')", "not available to --sql"),
        "trust_schema": ("PRAGMA trusted_schema = 1", "not available to --sql"),
        "endless": ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                    "SELECT count(*) FROM c", "time limit"),
        "huge_blob": ("SELECT zeroblob(400000000)", "memory limit"),
        "many_rows": ("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c "
                      "LIMIT 3000000) SELECT x, printf('%2000d', x) FROM c", "memory limit"),
    }
    for name, (sql, text) in sql_cases.items():
        extra = ["--time-limit", "2"] if name == "endless" else []
        extra += ["--memory-limit", "64"] if name in ("huge_blob", "many_rows") else []
        add(Case(f"db/sql_{name}", {"good.db": intact},
                 ["query", "--db", "{case}/good.db", "--sql", sql, *extra],
                 Expect(file="good.db", key="--sql", contains=[text] if text else [])))
    add(Case("db/sql_dangling_query", {"bad.db": dangling_point},
             ["query", "--db", "{case}/bad.db", "compare-archs", "--baseline", "a"],
             Expect(file="bad.db", contains=["dangling"])))
    if tmp.exists():
        tmp.unlink()


# ---------------------------------------------------------------------------
# Command-line values


def cli_cases() -> None:
    arch = "{data}/arch_specs/procrustes_baseline_16x16.yaml"
    mapping = "{data}/examples/mappings/resnet18_3x3_KN_fw.yaml"
    base_map = ["map", "--arch", arch, "--workload", "mlp_mnist", "-q"]
    cases = {
        "batch_past_int64": (["workload", "show", "mlp_mnist", "--batch",
                              "99999999999999999999"], "--batch"),
        "batch_past_2_53": (["workload", "show", "mlp_mnist", "--batch", "9007199254740993"],
                            "--batch"),
        "batch_zero": (["workload", "show", "mlp_mnist", "--batch", "0"], "--batch"),
        "batch_hex": (["workload", "show", "mlp_mnist", "--batch", "0x10"], "--batch"),
        "batch_fraction": (["workload", "show", "mlp_mnist", "--batch", "1.5"], "--batch"),
        "batch_too_large_for_layer": (["workload", "show", "vgg16", "--batch",
                                       "9007199254740992"], "batch"),
        "map_batch_overflow": (base_map + ["--batch", "4611686018427387904"], "--batch"),
        "eval_batch_overflow": (["eval", "-m", mapping, "--batch", "99999999999999999999"],
                                "--batch"),
        "budget_past_int64": (base_map + ["--budget", "99999999999999999999"], "--budget"),
        "budget_negative": (base_map + ["--budget", "-5"], "--budget"),
        "time_budget_nan": (base_map + ["--time-budget", "nan"], "--time-budget"),
        "time_budget_inf": (base_map + ["--time-budget", "inf"], "--time-budget"),
        "time_budget_negative": (base_map + ["--time-budget", "-1"], "--time-budget"),
        "patience_word": (base_map + ["--patience", "soon"], "--patience"),
        "threads_negative": (base_map + ["-j", "-2"], "--threads"),
        "threads_past_int": (base_map + ["-j", "99999999999"], "--threads"),
        "seed_negative": (base_map + ["--seed", "-1"], "--seed"),
        "iteration_negative": (["eval", "-m", mapping, "--sparsity", "procrustes",
                                "--iteration", "-3"], "--iteration"),
        "query_batch_zero": (["query", "--db", "{tmp}/none.db", "summary", "--batch", "0"],
                             "--batch"),
        "sql_time_limit_nan": (["query", "--db", "{tmp}/none.db", "--sql", "SELECT 1",
                                "--time-limit", "nan"], "--time-limit"),
        "sweep_threads_word": (["sweep", "{data}/examples/sweeps/tiny.yaml", "--db",
                                "{tmp}/x.db", "-j", "all"], "--threads"),
        "arch_directory": (["map", "--arch", "{data}/arch_specs", "--workload", "mlp_mnist"],
                           "--arch"),
        "workload_directory": (["workload", "show", "{data}/workloads"], "workloads"),
        "workload_dev_zero": (["workload", "show", "/dev/zero"], "/dev/zero"),
        "spec_check_fifo": (["spec", "check", "{tmp}/fifo.yaml"], "fifo.yaml"),
        "spec_check_symlink_loop": (["spec", "check", "{tmp}/loop.yaml"], "loop.yaml"),
        "spec_check_empty_path": (["spec", "check", ""], "path is empty"),
        "spec_check_directory": (["spec", "check", "{data}/workloads"], "directory"),
        "timeloop_directory": (["eval", "--timeloop", "{data}/tests/timeloop/cases/fc"],
                               "--timeloop"),
        "db_is_directory": (["query", "--db", "{data}/workloads", "summary"], "directory"),
        "export_out_is_file": (["export", "timeloop", "-m", mapping, "--out",
                                "{data}/README.md"], "--out"),
    }
    for name, (args, text) in cases.items():
        setup = []
        if name == "spec_check_fifo":
            setup = ["fifo-tmp:fifo.yaml"]
        if name == "spec_check_symlink_loop":
            setup = ["symlink-tmp:loop.yaml:loop.yaml"]
        add(Case(f"cli/{name}", {}, args, Expect(contains=[text]), setup))


# ---------------------------------------------------------------------------
# References from one file to another: errors name the referencing file and
# key, and quote at most one line of the other file.

NOT_YAML = "".join(f"user{i}:x:{1000 + i}:{1000 + i}:User {i}:/home/user{i}:/bin/sh\n"
                   for i in range(200))


def reference_cases() -> None:
    lib = lib_files()
    arch_lines = ARCH.splitlines()
    lib_line = next(i for i, l in enumerate(arch_lines, 1) if l.startswith("component_library"))
    for name, target, files in [
        ("passwd_like", "not_yaml.txt", {"not_yaml.txt": NOT_YAML.encode()}),
        ("binary", "blob.bin", {"blob.bin": bytes(range(256)) * 64}),
        ("network_file", "../lib/net.yaml", {}),
        ("missing", "nowhere.yaml", {}),
        ("directory", ".", {}),
        ("dev_zero", "/dev/zero", {}),
    ]:
        text = ARCH.replace("component_library: ../lib/components.yaml",
                            f"component_library: {target}")
        add(Case(f"reference/component_library_{name}", {"arch.yaml": text.encode(), **files,
                                                         **lib},
                 ["spec", "check", "{case}/arch.yaml"],
                 Expect(file="arch.yaml", line=lib_line, key="component_library",
                        absent=["user1:x", "user2:x"])))
    map_lines = MAPPING.splitlines()
    for key in ("arch", "workload"):
        line = next(i for i, l in enumerate(map_lines, 1) if l.strip().startswith(f"{key}:"))
        text = "\n".join(l if not l.strip().startswith(f"{key}:") else f"  {key}: not_yaml.txt"
                         for l in map_lines) + "\n"
        add(Case(f"reference/mapping_for_{key}_passwd_like",
                 {"mapping.yaml": text.encode(), "not_yaml.txt": NOT_YAML.encode(), **lib},
                 ["eval", "-m", "{case}/mapping.yaml"],
                 Expect(file="mapping.yaml", line=line, key=f"for.{key}",
                        absent=["user1:x", "user2:x"])))
    sweep_lines = SWEEP.splitlines()
    for entry, replacement, key in [
        ("  - ../lib/arch.yaml", "  - not_yaml.txt", "architectures"),
        ("networks: [../lib/net.yaml]", "networks: [not_yaml.txt]", "networks"),
        ("sparsity: [dense]", "sparsity: [not_yaml.txt]", "sparsity"),
    ]:
        line = next(i for i, l in enumerate(sweep_lines, 1) if l == entry)
        text = SWEEP.replace(entry + "\n", replacement + "\n", 1)
        add(Case(f"reference/sweep_{key}_passwd_like",
                 {"sweep.yaml": text.encode(), "not_yaml.txt": NOT_YAML.encode(), **lib},
                 ["sweep", "{case}/sweep.yaml", "--db", "{tmp}/out.db", "-q"],
                 Expect(file="sweep.yaml", line=line, key=key, absent=["user1:x", "user2:x"])))
    # Two different architectures under one name in one sweep.
    other = ARCH.replace("rows: 4", "rows: 2")
    text = SWEEP.replace("  - file: ../lib/arch.yaml\n    name: corpus_arch_small\n"
                         "    set:\n      pe_array.rows: 2\n", "  - other_arch.yaml\n")
    text = text.replace("exclude:\n  - architecture: corpus_arch_small\n    batch: 4\n", "")
    line = text.splitlines().index("  - other_arch.yaml") + 1
    add(Case("reference/sweep_two_architectures_one_name",
             {"sweep.yaml": text.encode(), "other_arch.yaml": other.replace(
                 "component_library: ../lib/components.yaml",
                 "component_library: ../lib/components.yaml").encode(), **lib},
             ["sweep", "{case}/sweep.yaml", "--db", "{tmp}/out.db", "-q"],
             Expect(file="sweep.yaml", line=line, key="architectures",
                    contains=["corpus_arch"])))


# ---------------------------------------------------------------------------
# Quantities past the representable range, built on valid documents.


def overflow_cases() -> None:
    lib = lib_files()

    def line_of(text: str, needle: str) -> int:
        return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)

    for name, old, new, key in [
        ("pe_count", "  rows: 4\n  columns: 4\n", "  rows: 4294967296\n  columns: 4294967296\n",
         "pe_array"),
        ("macs_per_pe", "  macs_per_pe: 1\n", "  macs_per_pe: 9007199254740992\n", "pe_array"),
        ("capacity_past_1_pib", "    capacity: 64 KB\n", "    capacity: 4611686018427387904\n",
         "storage[1].capacity"),
        ("capacity_gib_overflow", "    capacity: 64 KB\n", "    capacity: 9999999999 GiB\n",
         "storage[1].capacity"),
        ("instances_past_2_53", "    instances: 1\n", "    instances: 9007199254740993\n",
         "storage[1].instances"),
    ]:
        text = ARCH.replace(old, new, 1)
        # An error about a whole mapping points at its first key.
        line = line_of(text, new.strip().splitlines()[0]) if key != "pe_array" else \
            line_of(text, "rows:")
        add(Case(f"overflow/arch_{name}", {"arch.yaml": text.encode(), **lib},
                 ["spec", "check", "{case}/arch.yaml"],
                 Expect(file="arch.yaml", line=line, key=key)))
    for name, old, new, key, contains in [
        ("input_elements", "    height: 8\n    width: 8\n",
         "    height: 4294967296\n    width: 4294967296\n", "inputs[0]", ["elements"]),
        ("padding_huge", "    padding: 1\n", "    padding: 4503599627370496\n", "layers[0]",
         ["elements"]),
        ("dilation_huge", "    dilation: 1\n", "    dilation: 4503599627370496\n", "layers[0]",
         ["does not fit"]),
        ("fc_macs", "    out_features: 10\n", "    out_features: 4503599627370496\n",
         "layers[3]", ["2^53"]),
        ("out_channels_huge", "    out_channels: 8\n", "    out_channels: 4503599627370496\n",
         "layers[0]", ["2^53"]),
    ]:
        text = NETWORK.replace(old, new, 1)
        add(Case(f"overflow/network_{name}", {"net.yaml": text.encode()},
                 ["workload", "show", "{case}/net.yaml", "--batch", "4"],
                 Expect(file="net.yaml", contains=contains)))
    # Mapping factors whose product wraps in 64 bits: 2^60 + 8 times 16 is 128 mod 2^64.
    for name, old, new in [
        ("factor_wraps", "    temporal: [C8, K5]", "    temporal: [C1152921504606846984, K5]"),
        ("factor_past_int64", "    temporal: [C8, K5]", "    temporal: [C99999999999999999999, K5]"),
        ("spatial_wraps", "    spatial_x: [K2]", "    spatial_x: [K4611686018427387904]"),
    ]:
        text = MAPPING.replace(old, new)
        text = text.replace("temporal: [C2]", "temporal: [C16]") if name == "factor_wraps" \
            else text
        add(Case(f"overflow/mapping_{name}", {"mapping.yaml": text.encode(), **lib},
                 ["eval", "-m", "{case}/mapping.yaml"],
                 Expect(file="mapping.yaml", contains=["mapping"])))
    # A bandwidth so small the cycles leave the representable range.
    text = ARCH.replace("    read_bandwidth: 16\n", "    read_bandwidth: 1e-300\n")
    add(Case("overflow/bandwidth_tiny", {"arch.yaml": text.encode(), **lib,
                                         "mapping.yaml": MAPPING.replace(
                                             "../lib/arch.yaml", "arch.yaml").encode()},
             ["eval", "-m", "{case}/mapping.yaml"], Expect(contains=["bandwidth"])))


# ---------------------------------------------------------------------------
# The newer layer types (lstm, clos_fc, shuffle, grouped fc/matmul, inputs
# with `gradient: true`): values that parse but contradict each other or the
# shapes, and names that clash with the layers an `lstm` or a `clos_fc` is
# expanded into. Errors found by shape inference point at the layer's entry.


def network_layer_cases() -> None:
    base = NETWORK_SEQUENCE
    cmd = ["spec", "check", "{case}/net.yaml"]

    def line_of(text: str, needle: str) -> int:
        return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)

    # Zero for every count (the generic rules give negative, fraction, ...).
    for slot in slots_of(base):
        if not slot.is_key and is_int(slot.text):
            add(Case(f"network_layers/value_zero/{slot.path}",
                     {"net.yaml": replace(base, slot.start, slot.end, "0").encode()}, cmd,
                     Expect(file="net.yaml", line=slot.line, key=slot.path,
                            contains=["non-positive value 0"])))
    entry = {name: line_of(base, f"- name: {name}") for name in
             ("lstm1", "proj", "mix", "flat", "clos")}
    # (case, old text, new text, key, line, texts the message must hold); the line is a
    # number, a needle (ending in a newline: the whole line), or None: the last line of `new`.
    cases = [
        ("lstm_sequence_length_contradicts_input", "    sequence_length: 5\n",
         "    sequence_length: 6\n", "layers[0].sequence_length", entry["lstm1"],
         ["sequence_length 6", "5 time steps"]),
        ("lstm_input_not_a_sequence", "    height: 5\n", "    height: 5\n    width: 2\n",
         "layers[0].sequence_length", entry["lstm1"] + 1, ["width 2"]),
        ("lstm_two_inputs", "    inputs: [frames]\n", "    inputs: [frames, frames]\n",
         "layers[0].inputs", "inputs: [frames, frames]", ["exactly one input"]),
        ("lstm_no_inputs", "    inputs: [frames]\n", "    inputs: []\n",
         "layers[0].inputs", "inputs: []", ["exactly one input"]),
        ("lstm_extra_key", "    sequence_length: 5\n",
         "    sequence_length: 5\n    out_features: 3\n", "layers[0].out_features",
         "out_features: 3", ["out_features"]),
        ("lstm_missing_sequence_length", "    sequence_length: 5\n", "",
         "layers[0]", entry["lstm1"], ["sequence_length"]),
        ("lstm_hidden_size_gates_past_2_53", "    hidden_size: 8\n",
         "    hidden_size: 2251799813685249\n", "layers[0].hidden_size", "hidden_size: 22",
         ["gate outputs"]),
        ("lstm_cell_not_gate_channels", "    type: lstm\n", "    type: lstm_cell\n",
         "layers[0].hidden_size", entry["lstm1"], ["4 × 8"]),
        ("lstm_input_gates_name_taken_after",
         "  - name: proj\n",
         "  - name: lstm1.input_gates\n    type: relu\n    inputs: [lstm1]\n  - name: proj\n",
         "layers[1]", "- name: lstm1.input_gates", ["duplicate name `lstm1.input_gates`"]),
        ("lstm_input_gates_name_taken_before", "layers:\n",
         "layers:\n  - name: lstm1.input_gates\n    type: relu\n    inputs: [frames]\n",
         "layers[1]", "  - name: lstm1\n",
         ["duplicate name `lstm1.input_gates`"]),
        ("lstm_input_gates_name_is_an_input", "  - name: frames\n",
         "  - name: lstm1.input_gates\n    channels: 2\n  - name: frames\n",
         "layers[0]", entry["lstm1"] + 2, ["duplicate name `lstm1.input_gates`"]),
        ("matmul_groups_not_dividing_input", "    out_features: 12\n    groups: 2\n",
         "    out_features: 12\n    groups: 3\n", "layers[1].groups", entry["proj"],
         ["groups 3 does not divide the 8 input features"]),
        ("matmul_groups_not_dividing_output", "    out_features: 12\n    groups: 2\n",
         "    out_features: 12\n    groups: 8\n", "layers[1].groups", "groups: 8",
         ["groups 8 does not divide out_features 12"]),
        ("shuffle_groups_not_dividing", "    inputs: [proj]\n    groups: 3\n",
         "    inputs: [proj]\n    groups: 5\n", "layers[2].groups", entry["mix"],
         ["groups 5 does not divide the 12 channels"]),
        ("shuffle_missing_groups", "    inputs: [proj]\n    groups: 3\n",
         "    inputs: [proj]\n", "layers[2]", entry["mix"], ["missing key `groups`"]),
        ("shuffle_extra_key", "    inputs: [proj]\n    groups: 3\n",
         "    inputs: [proj]\n    groups: 3\n    out_features: 4\n", "layers[2].out_features",
         "out_features: 4", ["out_features"]),
        ("shuffle_two_inputs", "    inputs: [proj]\n", "    inputs: [proj, lstm1]\n",
         "layers[2].inputs", "inputs: [proj, lstm1]", ["exactly one input"]),
        ("fc_groups_not_dividing_features", "    out_features: 20\n    groups: 4\n",
         "    out_features: 24\n    groups: 8\n", "layers[3].groups", entry["flat"],
         ["groups 8 does not divide the 60 input features"]),
        ("fc_groups_not_dividing_output", "    out_features: 20\n    groups: 4\n",
         "    out_features: 20\n    groups: 6\n", "layers[3].groups", "groups: 6",
         ["groups 6 does not divide out_features 20"]),
        ("clos_output_routers_not_dividing", "    output_routers: 3\n",
         "    output_routers: 5\n", "layers[4].output_routers", "output_routers: 5",
         ["output_routers 5 does not divide out_features 12"]),
        ("clos_input_routers_not_dividing", "    input_routers: 4\n", "    input_routers: 3\n",
         "layers[4].input_routers", entry["clos"],
         ["input_routers 3 does not divide the 20 input features"]),
        ("clos_router_products_past_2_53", "    middle_routers: 2\n",
         "    middle_routers: 4503599627370496\n", "layers[4].middle_routers",
         "middle_routers: 45", ["2^53"]),
        ("clos_missing_middle_routers", "    middle_routers: 2\n", "", "layers[4]",
         entry["clos"], ["missing key `middle_routers`"]),
        ("clos_extra_key", "    output_routers: 3\n",
         "    output_routers: 3\n    groups: 3\n", "layers[4].groups", None, ["groups"]),
        ("clos_two_inputs", "    inputs: [flat]\n", "    inputs: [flat, mix]\n",
         "layers[4].inputs", "inputs: [flat, mix]", ["exactly one input"]),
        ("clos_stage_name_taken", "  - name: clos\n",
         "  - name: clos.shuffle_in\n    type: relu\n    inputs: [flat]\n  - name: clos\n",
         "layers[5]", "  - name: clos\n", ["a stage of Clos cascade `clos`"]),
        ("lstm_name_written_twice", "  - name: proj\n",
         "  - name: lstm1\n    type: lstm\n    inputs: [frames]\n    hidden_size: 8\n"
         "    sequence_length: 5\n  - name: proj\n", "layers[1]", entry["proj"],
         ["duplicate name `lstm1`"]),
        ("clos_name_taken_by_a_layer", "  - name: proj\n",
         "  - name: clos\n    type: relu\n    inputs: [lstm1]\n  - name: proj\n", "layers[5]",
         entry["clos"] + 3, ["duplicate name `clos`"]),
        # Sizes each within 2^53 whose layers are too large to model exactly.
        ("lstm_gates_too_large", "    hidden_size: 8\n", "    hidden_size: 2251799813685248\n",
         "layers[0]", entry["lstm1"], ["more than 2^53"]),
        ("lstm_sequence_macs_too_large", "    height: 5\n",
         "    height: 281474976710656\n", None, entry["lstm1"], ["lstm1.input_gates", "2^53"]),
        ("clos_stage_macs_too_large", "    middle_routers: 2\n",
         "    middle_routers: 1125899906842624\n", None, entry["clos"],
         ["clos.input_routers", "2^53"]),
        # Empty values: at the key's own line (yaml-cpp places them at the next token).
        ("gradient_empty", "    gradient: true\n", "    gradient:\n", "inputs[0].gradient",
         "    gradient:\n", []),
        ("shuffle_groups_empty", "    inputs: [proj]\n    groups: 3\n",
         "    inputs: [proj]\n    groups:\n", "layers[2].groups", None, ["no value"]),
        ("gradient_on_a_layer", "    hidden_size: 8\n", "    hidden_size: 8\n    gradient: true\n",
         "layers[0].gradient", None, ["gradient"]),
    ]
    for name, old, new, key, line, contains in cases:
        assert base.count(old) >= 1, name
        text = base.replace(old, new, 1)
        if name == "lstm_sequence_macs_too_large":  # the LSTM's length follows the input
            text = text.replace("sequence_length: 5", "sequence_length: 281474976710656")
        if line is None:  # the last line of the new text
            line = text[:text.index(new) + len(new)].count("\n")
        elif isinstance(line, str):
            needle = line.rstrip("\n")
            lines = text.splitlines()
            line = next(i for i, l in enumerate(lines, 1)
                        if (l == needle if line.endswith("\n") else needle in l))
        # A name written twice is reported as written, not as a layer it expands into.
        absent = {"lstm_name_written_twice": ["input_gates"],
                  "clos_name_taken_by_a_layer": ["stage"]}.get(name, [])
        add(Case(f"network_layers/{name}", {"net.yaml": text.encode()}, cmd,
                 Expect(file="net.yaml", line=line, key=key, contains=contains, absent=absent)))


# ---------------------------------------------------------------------------
# Issue 63's classes: a contradictory Timeloop keep/bypass, physical quantities
# out of range, `for:` in every mapping form, output files through symbolic
# links, and names with characters names may not hold. Each is refused at its
# key.


def issue63_cases() -> None:
    lib = lib_files()

    def line_of(text: str, needle: str) -> int:
        return next(i for i, l in enumerate(text.splitlines(), 1) if needle in l)

    # Timeloop: a data space both kept and bypassed, in a mapping entry (v0.3)
    # and in a v0.4 component's dataspace constraint.
    entry = "- target: RegFile\n  type: datatype\n  keep: [Weights, Inputs]\n  bypass: [Inputs]\n"
    tl = ["{case}/../lib/timeloop/" + f for f in ("arch.yaml", "problem.yaml")]
    text = TIMELOOP_MAP.rstrip("\n") + "\n" + entry
    add(Case("timeloop_map/keep_and_bypass_same_space", {"map.yaml": text.encode()},
             ["eval", "--timeloop", *tl, "{case}/map.yaml", "{case}/../lib/timeloop/ERT.yaml"],
             Expect(file="map.yaml", line=line_of(text, "bypass: [Inputs]"), key="bypass[0]",
                    contains=["both kept and bypassed at `RegFile`"])))
    golden = "{data}/tests/golden/timeloop/conv3x_fixed/"
    v04_arch = """\
architecture:
  version: 0.4
  nodes:
  - !Container
    name: system
  - !Component
    name: DRAM
    class: DRAM
    attributes: {type: LPDDR4, width: 64, datawidth: 16}
  - !Container
    name: chip
  - !Component
    name: GlobalBuffer
    class: smartbuffer_SRAM
    attributes: {depth: 16384, width: 64, datawidth: 16, read_bandwidth: 16, write_bandwidth: 16}
  - !Container
    name: PE
    spatial: {meshX: 16, meshY: 16}
  - !Component
    name: RegFile
    class: smartbuffer_RF
    attributes: {depth: 512, width: 16, datawidth: 16}
    constraints: {dataspace: {keep: [Weights], bypass: [Weights]}}
  - !Component
    name: MACC
    class: intmac
    attributes: {datawidth: 16}
"""
    add(Case("timeloop_arch/v04_keep_and_bypass_same_space", {"arch.yaml": v04_arch.encode()},
             ["eval", "--timeloop", "{case}/arch.yaml", golden + "problem.yaml",
              golden + "map.yaml", golden + "ERT.yaml"],
             Expect(file="arch.yaml", line=line_of(v04_arch, "constraints:"),
                    key="dataspace.bypass[0]", contains=["both kept and bypassed"])))

    # Physical quantities out of their kind's range, in each spec that gives one.
    for name, old, new, key in [
        ("clock_absurd_low", "clock_ghz: 1.0", "clock_ghz: 1e-300", "clock_ghz"),
        ("clock_absurd_high", "clock_ghz: 1.0", "clock_ghz: 1e300", "clock_ghz"),
        ("clock_below_1_mhz", "clock_ghz: 1.0", "clock_ghz: 0.0005", "clock_ghz"),
        ("bandwidth_absurd_high", "    read_bandwidth: 16", "    read_bandwidth: 1e300",
         "storage[1].read_bandwidth"),
        ("word_bits_absurd", "    word_bits: 32", "    word_bits: 4503599627370496",
         "storage[0].word_bits"),
    ]:
        text = ARCH.replace(old, new, 1)
        assert text != ARCH, name
        add(Case(f"arch/range_{name}", {"arch.yaml": text.encode(), **lib},
                 ["spec", "check", "{case}/arch.yaml"],
                 Expect(file="arch.yaml", line=line_of(text, new.strip()), key=key,
                        contains=["is out of range"])))
    for name, old, new, key in [
        ("energy_absurd", "    mac_pj: 4.6", "    mac_pj: 1e300", "entries[0].mac_pj"),
        ("energy_tiny", "    mac_pj: 4.6", "    mac_pj: 1e-300", "entries[0].mac_pj"),
        ("leakage_absurd", "    leakage_mw: 0.0\n    area_um2: 11884",
         "    leakage_mw: 1e300\n    area_um2: 11884", "entries[0].leakage_mw"),
        ("area_absurd", "    area_um2: 11884", "    area_um2: 1e300", "entries[0].area_um2"),
    ]:
        text = COMPONENTS.replace(old, new, 1)
        assert text != COMPONENTS, name
        add(Case(f"components/range_{name}", {"components.yaml": text.encode()},
                 ["spec", "check", "{case}/components.yaml"],
                 Expect(file="components.yaml", line=line_of(text, new.strip().splitlines()[0]),
                        key=key, contains=["is out of range"])))

    # `for:` reads the same in every form: flow-style JSON and flow YAML
    # with a bad `for:` entry are located there, as block YAML is.
    doc = yaml.safe_load(MAPPING)
    doc["for"]["phase"] = "fx"
    as_json = json.dumps(doc, indent=1)
    flow = "{for: {arch: ../lib/arch.yaml, workload: ../lib/net.yaml, layer: fc1,\n" \
           "  phase: fx}, mapping: []}\n"
    for name, text in [("json_for_block", as_json), ("flow_yaml_for_block", flow)]:
        add(Case(f"mapping/{name}_bad_phase", {"mapping.yaml": text.encode()},
                 ["eval", "-m", "{case}/mapping.yaml"],
                 Expect(file="mapping.yaml", line=line_of(text, "fx"), key="for.phase",
                        absent=["no arch given"])))

    # An output folder with a symbolic link (here dangling) at a file's name:
    # it counts as an existing file, never written through.
    add(Case("cli/import_timeloop_symlink_in_out", {},
             ["import", "timeloop", "{case}/../lib/timeloop/arch.yaml",
              "{case}/../lib/timeloop/problem.yaml", "{case}/../lib/timeloop/map.yaml",
              "{case}/../lib/timeloop/ERT.yaml", "--out", "{tmp}"],
             Expect(key="--out", contains=["refusing to overwrite", "arch.yaml"]),
             setup=["symlink-tmp:arch.yaml:/nonexistent/outside/arch.yaml"]))

    # Names: a path separator, `..`, control characters, a right-to-left
    # override, a space; in each spec that defines names.
    bad_names = [("slash", '"a/b"', "`/`"), ("dotdot", '".."', "begins with `.`"),
                 ("newline", '"conv\\n1"', "U+000A"), ("rlo", '"fc\\u202Egnp"', "U+202E"),
                 ("space", '"conv 1"', "a space"), ("dash_first", '"-rf"', "begins with `-`")]
    specs = [
        ("network", "net.yaml", NETWORK, "  - name: conv1", "layers[0].name",
         ["spec", "check", "{case}/net.yaml"]),
        ("network", "net.yaml", NETWORK, "network: corpus_net", "network",
         ["spec", "check", "{case}/net.yaml"]),
        ("arch", "arch.yaml", ARCH, "architecture: corpus_arch", "architecture",
         ["spec", "check", "{case}/arch.yaml"]),
        ("arch", "arch.yaml", ARCH, "  - name: DRAM", "storage[0].name",
         ["spec", "check", "{case}/arch.yaml"]),
        ("components", "components.yaml", COMPONENTS, "  - name: fp32_mac", "entries[0].name",
         ["spec", "check", "{case}/components.yaml"]),
        ("sparsity", "profile.yaml", PROFILE, "sparsity_profile: corpus_profile",
         "sparsity_profile", ["spec", "check", "{case}/profile.yaml"]),
        ("sweep", "sweep.yaml", SWEEP, "sweep: corpus_sweep", "sweep",
         ["sweep", "{case}/sweep.yaml", "--db", "{tmp}/out.db", "-q"]),
        ("timeloop_arch", "arch.yaml", TIMELOOP_ARCH, "- name: RegFile", "name",
         ["eval", "--timeloop", "{case}/arch.yaml", "{case}/../lib/timeloop/problem.yaml",
          "{case}/../lib/timeloop/map.yaml", "{case}/../lib/timeloop/ERT.yaml"]),
    ]
    for kind, filename, base, line_text, key, cmd in specs:
        prefix, _, old = line_text.rpartition(" ")
        for label, value, said in bad_names:
            text = base.replace(line_text, f"{prefix} {value}", 1)
            assert text != base, (kind, line_text)
            files = {filename: text.encode(), **(lib if kind == "arch" else {})}
            add(Case(f"{kind}/name_{key.replace('[0]', '')}_{label}", files, cmd,
                     Expect(file=filename, line=line_of(text, f"{prefix} {value}"), key=key,
                            contains=[said], absent=["\u202e"])))


def lib_files() -> dict[str, bytes]:
    return {}  # the shared files live in cases/lib/, written once


def write_corpus() -> None:
    if CASES.exists():
        shutil.rmtree(CASES)
    CASES.mkdir(parents=True)
    lib = CASES / "lib"
    lib.mkdir()
    (lib / "components.yaml").write_text(COMPONENTS)
    (lib / "arch.yaml").write_text(ARCH.replace("../lib/components.yaml", "components.yaml"))
    (lib / "net.yaml").write_text(NETWORK)
    (lib / "timeloop").mkdir()
    for name, text in [("arch.yaml", TIMELOOP_ARCH), ("problem.yaml", TIMELOOP_PROBLEM),
                       ("map.yaml", TIMELOOP_MAP), ("ERT.yaml", TIMELOOP_ERT),
                       ("sparse.yaml", TIMELOOP_SPARSE)]:
        (lib / "timeloop" / name).write_text(text)
    manifest = []
    seen = set()
    for case in CASES_OUT:
        assert case.name not in seen, case.name
        seen.add(case.name)
        directory = CASES / case.name.replace("/", "__")
        directory.mkdir()
        for rel, content in case.files.items():
            path = directory / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        manifest.append({
            "name": case.name,
            "dir": directory.name,
            "cmd": case.cmd,
            "setup": case.setup,
            "expect": {k: v for k, v in vars(case.expect).items() if v not in (None, [])},
        })
    manifest.sort(key=lambda c: c["name"])
    (CASES / "manifest.json").write_text(
        "[\n" + ",\n".join(json.dumps(c, separators=(",", ":")) for c in manifest) + "\n]\n")
    print(f"{len(manifest)} cases, {sum(1 for _ in CASES.rglob('*') if _.is_file())} files "
          f"in {CASES}")


def main() -> None:
    spec = ["spec", "check"]
    yaml_cases("components", "components.yaml", COMPONENTS, spec + ["{case}/components.yaml"])
    whole_file_cases("components", "components.yaml", COMPONENTS,
                     spec + ["{case}/components.yaml"])
    arch = ARCH
    yaml_cases("arch", "arch.yaml", arch, spec + ["{case}/arch.yaml"])
    whole_file_cases("arch", "arch.yaml", arch, spec + ["{case}/arch.yaml"])
    yaml_cases("network", "net.yaml", NETWORK, spec + ["{case}/net.yaml"])
    whole_file_cases("network", "net.yaml", NETWORK, spec + ["{case}/net.yaml"])
    yaml_cases("network_layers", "net.yaml", NETWORK_SEQUENCE, spec + ["{case}/net.yaml"])
    network_layer_cases()
    yaml_cases("sparsity", "profile.yaml", PROFILE, spec + ["{case}/profile.yaml"])
    whole_file_cases("sparsity", "profile.yaml", PROFILE, spec + ["{case}/profile.yaml"])
    mapping = MAPPING
    yaml_cases("mapping", "mapping.yaml", mapping, ["eval", "-m", "{case}/mapping.yaml"])
    whole_file_cases("mapping", "mapping.yaml", mapping, ["eval", "-m", "{case}/mapping.yaml"])
    constraints = CONSTRAINTS
    yaml_cases("constraints", "constraints.yaml", constraints,
               spec + ["{case}/constraints.yaml"])
    whole_file_cases("constraints", "constraints.yaml", constraints,
                     spec + ["{case}/constraints.yaml"])
    sweep = SWEEP
    sweep_cmd = ["sweep", "{case}/sweep.yaml", "--db", "{tmp}/out.db", "-q"]
    yaml_cases("sweep", "sweep.yaml", sweep, sweep_cmd)
    whole_file_cases("sweep", "sweep.yaml", sweep, sweep_cmd)
    tl_files = {"arch.yaml": TIMELOOP_ARCH, "problem.yaml": TIMELOOP_PROBLEM,
                "map.yaml": TIMELOOP_MAP, "ERT.yaml": TIMELOOP_ERT,
                "sparse.yaml": TIMELOOP_SPARSE}
    for name, text in tl_files.items():
        # The mutated file in the case, the others from lib/timeloop/.
        tl_cmd = ["eval", "--timeloop"] + [
            "{case}/" + f if f == name else "{case}/../lib/timeloop/" + f for f in tl_files]
        kind = "timeloop_" + name.split(".")[0].lower()
        yaml_cases(kind, name, text, tl_cmd)
        whole_file_cases(kind, name, text, tl_cmd)
    npy_cases()
    db_cases()
    cli_cases()
    reference_cases()
    overflow_cases()
    issue63_cases()
    write_corpus()


# Cases a mutation rule cannot make invalid, by (kind, "key path regex @ rule regex"):
# free text and names where any text is a valid value, optional keys whose
# misspelling is a note rather than an error, and similar.
SKIP.update({
    "components": {r"description @ .*", r"technology @ .*", r"components @ .*",
                   r"entries\[\d+\]\.name @ (list|map)"},
    "arch": {r"description @ .*", r"architecture @ .*"},
    "network": {r"description @ .*", r"network @ .*", r"layers\[\d+\]\.name @ .*",
                r"inputs\[\d+\]\.name @ .*"},
    "network_layers": {r"description @ .*", r"network @ .*", r"layers\[\d+\]\.name @ .*",
                       r"inputs\[\d+\]\.name @ .*"},
    "sparsity": {r"description @ .*", r"sparsity_profile @ .*"},
    "mapping": set(),
    "constraints": {r"mapping_constraints @ .*"},
    "sweep": {r"description @ .*", r"sweep @ .*", r"architectures\[1\]\.name @ .*",
              r"architectures\[1\]\.set\.pe_array\.rows @ key"},
    "timeloop_arch": {r".*\.attributes\.technology @ .*", r".*\.attributes\.type @ .*",
                      r".*\.attributes\..* @ key", r".*\.class @ .*",
                      r"architecture\.version @ key"},
    "timeloop_problem": {r"problem\.shape\.(coefficients|data-spaces).* @ .*",
                         r"problem\.shape\.dimensions.* @ .*"},
    "timeloop_map": set(),
    "timeloop_ert": {r"ERT\.version @ .*", r"ERT\.tables\[\d+\]\.name @ .*",
                     r".*\.actions\[\d+\]\.name @ .*"},
})

if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser(description="Writes the malformed-input corpus.")
    parser.add_argument("--out", type=Path, default=CASES, help="directory to (re)write")
    CASES = parser.parse_args().out.resolve()
    os.chdir(ROOT)
    main()
