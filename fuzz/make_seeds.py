#!/usr/bin/env python3
"""Builds the fuzz targets' seed corpus (fuzz/corpus/<target>/) from the
repository's own valid inputs. Rerun when they change:
    python3 fuzz/make_seeds.py
The first byte of a fuzz_spec_yaml or fuzz_mapping input picks the reader
(see those targets); the rest is the document.
"""

import hashlib
import shutil
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "corpus"


def put(target: str, data: bytes) -> None:
    directory = OUT / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def npy(header: str, data: bytes, version: int = 1) -> bytes:
    h = header.encode("latin1")
    prefix = 6 + 2 + (2 if version == 1 else 4)
    pad = (64 - (prefix + len(h) + 1) % 64) % 64
    h += b" " * pad + b"\n"
    size = struct.pack("<H", len(h)) if version == 1 else struct.pack("<I", len(h))
    return b"\x93NUMPY" + bytes([version, 0]) + size + h + data


EINSUM_NETWORK = """network: ffn_einsum
inputs:
  - {name: x, channels: 768, height: 512}
layers:
  - {name: q, type: einsum, inputs: [x], einsum: 'Q[b,s,h,d] += W[h,d,e] * X[b,s,e]',
     weights: W, dims: {s: 512, h: 12, d: 64, e: 768}}
  - {name: conv, type: einsum, inputs: [q], einsum: 'O[n,k,p] += W[k,c,r] * I[n,c,p*2+r]',
     weights: W, batch: n, dims: {k: 8, c: 64, p: 3072, r: 2}}
"""

EINSUM_EQUATIONS = [
    "S[b,h,q,k] += Q[b,h,q,d] * K[b,h,k,d]",
    "O[b,h,q,d] += A[b,h,q,k] * V[b,h,k,d]",
    "O[n,g,k,p,q] += W[g,k,c,r,s] * I[n,g,c,p*2+r,q*2+s*3]",
    "Z[m,n] = A[m,k] * B[k,n]",
    "Z[] += A[i] * B[i]",
    "O[k,x,y,z] += W[k,c,a,b,e] * I[c,x+a,y+b,z*2+e]",
    "S[b,g,r,q,k] += Q[b,g,r,q,d] * K[b,g,k,d]",
    "S[i] += A[2*i+j] * B[j]",
]


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    spec_sources = [
        (0, sorted((ROOT / "workloads").glob("*.yaml"))),
        (1, sorted((ROOT / "arch_specs").glob("*.yaml"))),
        (2, sorted((ROOT / "arch_specs/components").glob("*.yaml"))),
        (3, sorted((ROOT / "workloads/sparsity").glob("*.yaml"))),
        (4, sorted((ROOT / "examples/constraints").glob("*.yaml"))),
        (5, sorted((ROOT / "examples/sweeps").glob("*.yaml"))),
    ]
    for selector, files in spec_sources:
        for f in files:
            put("fuzz_spec_yaml", bytes([selector]) + f.read_bytes())
    # A fibertree format (`ranks:`), which no shipped spec uses yet.
    sigma = (ROOT / "arch_specs/chen2024_sigma_8x8.yaml").read_text()
    put("fuzz_spec_yaml", bytes([1]) + sigma.replace("format: bitmap", "ranks: [UOP, B, cp]").encode())
    # A network of einsum layers (docs/workload_format.md, "Einsum layers").
    put("fuzz_spec_yaml", bytes([0]) + EINSUM_NETWORK.encode())
    for equation in EINSUM_EQUATIONS:
        put("fuzz_einsum", equation.encode())
    for f in sorted((ROOT / "examples/mappings").glob("*.yaml"))[:8]:
        put("fuzz_mapping", b"\x00" + f.read_bytes())
    for text in [
        "DRAM[N16 K4 C4] GLB[P4 Q4 X:C16 Y:K16] RF[K2 C2 R3 S3 P7 Q7 bypass:inputs]",
        "DRAM[K8 P7 Q4 C8] GLB[C4 P4 X:K16 Y:N16] RF[C4 R3 S3 Q7]",
        "DRAM[] GLB[X:K16 Y:N16] RF[keep:weights]",
    ]:
        put("fuzz_mapping", b"\x01" + text.encode())
    put("fuzz_mapping", b"\x02" + b'{"levels": [{"level": "DRAM", "temporal": ["K8", "P7", '
        b'"Q4", "C8"], "spatial_x": [], "spatial_y": [], "keep": ["weights", "inputs", '
        b'"outputs"]}, {"level": "GLB", "temporal": ["C4", "P4"], "spatial_x": ["K16"], '
        b'"spatial_y": ["N16"], "keep": ["weights", "inputs", "outputs"]}, {"level": "RF", '
        b'"temporal": ["C4", "R3", "S3", "Q7"], "spatial_x": [], "spatial_y": [], "keep": '
        b'["weights", "inputs", "outputs"]}]}')
    for header, data in [
        ("{'descr': '|b1', 'fortran_order': False, 'shape': (4, 3), }", bytes([1, 0, 1] * 4)),
        ("{'descr': '|u1', 'fortran_order': True, 'shape': (2, 3, 2), }", bytes(range(12))),
        ("{'descr': '<u1', 'fortran_order': False, 'shape': (5,), }", b"\x01\x00\x02\x00\x03"),
    ]:
        put("fuzz_npy", npy(header, data))
        put("fuzz_npy", npy(header, data, version=2))
    for case in sorted((ROOT / "tests/timeloop/cases").iterdir()):
        doc = b"".join((case / name).read_bytes() + b"\n"
                       for name in ("arch.yaml", "problem.yaml", "map.yaml", "ERT.yaml")
                       if (case / name).exists())
        put("fuzz_timeloop", doc)
    # Sparseloop's per-rank formats and densities on a dense corpus case.
    dense = ROOT / "tests/golden/timeloop/dense/glb_rf_8x4"
    sparse = ROOT / "tests/golden/timeloop/sparse"
    put("fuzz_timeloop", b"".join(p.read_bytes() + b"\n" for p in (
        dense / "arch.yaml", sparse / "m00_problem_map.yaml", sparse / "formats_gating.yaml",
        dense / "ERT.yaml")))
    for target in sorted(OUT.iterdir()):
        print(f"{target.name}: {len(list(target.iterdir()))} seeds")


if __name__ == "__main__":
    main()
