#!/usr/bin/env python3
"""Independent cross-check of the network library: per network, the number of
MAC layers, total weights (sum of G*K*C*R*S over conv/fc/matmul; no biases, no
batch-norm parameters) and forward MACs per sample (sum of G*K*C*P*Q*R*S).
count() also gives them per MAC layer (procrustes_profile.py uses that).

Reads the YAML files with PyYAML and propagates shapes through the layer DAG
with the rules of docs/workload_format.md (it shares no code with the
generator nor with the C++ parser).

    python3 workloads/tools/count_networks.py [FILE.yaml ...]   # default: workloads/*.yaml
"""

import glob
import os
import sys

import yaml


def pair(v, default):
    if v is None:
        v = default
    if isinstance(v, int):
        return v, v
    if isinstance(v, list) and len(v) == 2:
        return v[0], v[1]
    raise ValueError("expected an int or [h, w], got %r" % (v,))


def out_size(size, k, s, p, d):
    return (size + 2 * p - d * (k - 1) - 1) // s + 1


def topo_order(layers, known):
    """Layers in an order where every input is defined before use."""
    pending = list(layers)
    order = []
    while pending:
        rest = [l for l in pending if not all(i in known for i in l["inputs"])]
        ready = [l for l in pending if all(i in known for i in l["inputs"])]
        if not ready:
            raise ValueError("cycle or unknown input among %s" % [l["name"] for l in rest][:5])
        for l in ready:
            known.add(l["name"])
        order += ready
        pending = rest
    return order


def count(doc):
    shape = {}
    for t in doc["inputs"]:
        shape[t["name"]] = (t["channels"], t.get("height", 1), t.get("width", 1))
    layers = doc["layers"]
    for l in layers:
        if isinstance(l["inputs"], str):
            l["inputs"] = [l["inputs"]]
    names = [l["name"] for l in layers]
    if len(set(names)) != len(names) or set(names) & set(shape):
        raise ValueError("layer names are not unique")
    n_mac = weights = macs = 0
    per_layer = []  # (name, weights, fw MACs per sample) of every MAC layer
    consumed = set()
    for l in topo_order(layers, set(shape)):
        ins = [shape[i] for i in l["inputs"]]
        consumed.update(l["inputs"])
        typ = l["type"]
        if typ in ("conv", "fc", "matmul", "relu", "batchnorm", "maxpool", "avgpool", "shuffle",
                   "clos_fc", "lstm"):
            assert len(ins) == 1, l["name"]
        c, h, w = ins[0]
        if typ == "conv":
            g = l.get("groups", 1)
            k_out = l["out_channels"]
            assert c % g == 0 and k_out % g == 0, l["name"]
            r, s = pair(l["kernel"], None)
            sr, ss = pair(l.get("stride"), 1)
            pr, ps = pair(l.get("padding"), 0)
            dr, ds = pair(l.get("dilation"), 1)
            p, q = out_size(h, r, sr, pr, dr), out_size(w, s, ss, ps, ds)
            assert p > 0 and q > 0, l["name"]
            G, K, C = g, k_out // g, c // g
            out = (k_out, p, q)
        elif typ == "fc":
            g = l.get("groups", 1)
            assert (c * h * w) % g == 0 and l["out_features"] % g == 0, l["name"]
            G, K, C, p, q, r, s = g, l["out_features"] // g, c * h * w // g, 1, 1, 1, 1
            out = (l["out_features"], 1, 1)
        elif typ == "matmul":
            g = l.get("groups", 1)
            assert c % g == 0 and l["out_features"] % g == 0, l["name"]
            G, K, C, p, q, r, s = g, l["out_features"] // g, c // g, h, w, 1, 1
            out = (l["out_features"], h, w)
        elif typ == "clos_fc":
            # Three block-diagonal stages (CloNets §II): Ri blocks of (I/Ri) x Rm,
            # Rm blocks of Ri x Ro, Ro blocks of Rm x (O/Ro); counted here stage by stage.
            i_feat, o_feat = c * h * w, l["out_features"]
            ri, rm, ro = l["input_routers"], l["middle_routers"], l["output_routers"]
            assert i_feat % ri == 0 and o_feat % ro == 0, l["name"]
            stages = [(ri, rm, i_feat // ri), (rm, ro, ri), (ro, o_feat // ro, rm)]
            for k, (g, k_out, c_in) in enumerate(stages):
                n_mac += 1
                weights += g * k_out * c_in
                macs += g * k_out * c_in
                per_layer.append(("%s/stage%d" % (l["name"], k + 1), g * k_out * c_in,
                                  g * k_out * c_in))
            G = None
            out = (o_feat, 1, 1)
        elif typ == "lstm":
            # Two MAC layers, as trainloop expands it (engine/workload/lstm.hpp): the
            # input gates W_x (4H x C) and the recurrence W_h (4H x H), at each of T = h steps.
            hid, steps = l["hidden_size"], l["sequence_length"]
            assert h == steps and w == 1, l["name"]
            for part, c_in in (("%s.input_gates" % l["name"], c), (l["name"], hid)):
                n_mac += 1
                weights += 4 * hid * c_in
                macs += 4 * hid * c_in * steps
                per_layer.append((part, 4 * hid * c_in, 4 * hid * c_in * steps))
            G = None
            out = (hid, steps, 1)
        else:
            G = None
            if typ in ("relu", "batchnorm", "shuffle"):
                out = ins[0]
            elif typ == "clos_fc":
                pass
            elif typ in ("maxpool", "avgpool"):
                if l.get("global"):
                    out = (c, 1, 1)
                else:
                    kr, ks = pair(l["kernel"], None)
                    sr, ss = pair(l.get("stride"), l["kernel"])
                    pr, ps = pair(l.get("padding"), 0)
                    out = (c, out_size(h, kr, sr, pr, 1), out_size(w, ks, ss, ps, 1))
            elif typ == "add":
                assert len(ins) >= 2 and all(x == ins[0] for x in ins), l["name"]
                out = ins[0]
            elif typ == "concat":
                assert len(ins) >= 2 and all(x[1:] == ins[0][1:] for x in ins), l["name"]
                out = (sum(x[0] for x in ins), h, w)
            else:
                raise ValueError("unknown layer type %r" % typ)
        if G is not None:
            n_mac += 1
            weights += G * K * C * r * s
            macs += G * K * C * p * q * r * s
            per_layer.append((l["name"], G * K * C * r * s, G * K * C * p * q * r * s))
        shape[l["name"]] = out
    sinks = [n for n in names if n not in consumed]
    return n_mac, weights, macs, sinks, shape, per_layer


def human(x):
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return "%.3g%s" % (x / div, unit)
    return str(x)


def main(argv):
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    files = argv or sorted(glob.glob(os.path.join(here, "*.yaml")))
    print("%-16s %5s %7s %13s %8s %15s %8s  %s" %
          ("network", "layers", "MAC", "weights", "", "fw MACs/sample", "", "output"))
    for f in files:
        with open(f) as fh:
            doc = yaml.safe_load(fh)
        n_mac, weights, macs, sinks, shape, _ = count(doc)
        outs = ",".join("%s %dx%dx%d" % ((n,) + shape[n]) for n in sinks)
        print("%-16s %5d %7d %13d %8s %15d %8s  %s" %
              (doc["network"], len(doc["layers"]), n_mac, weights, human(weights),
               macs, human(macs), outs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
