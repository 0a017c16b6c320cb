"""Running trainloop for the document (or reading the stored runs, or replaying some of
them): the Runner that records each command's JSON, and run_all, which makes every run the
sections read and returns them as Results."""

import datetime
import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass

from reproduction_support import (
    MACS_ONLY, ROOT, Search, arch_with_dram_bandwidth, children_cpu_seconds, first_difference,
    git_commit, load_module, report_replay, scalars_and, search_from, write_spec_variant,
    write_stored_runs)

from .readings import (
    CLUSTER_CVS, DATAFLOW, DNNSIM_DRAM, DRAM_BANDWIDTHS, GENERATOR, OTHER_DATAFLOWS, PROFILES)
from .thesis import (
    GSCN_BATCH, GSCN_TILES, SCNN_BANKS, SCNN_PES, SCNN_TILES, SCNN_VECTORS, TABLE_6_1,
    TRAIN_BATCH)


def scnn_variant(gscn_spec, sample_tiles, work):
    """SCNN's array (planar tiling, no predictor, thesis §6.3) in a copy of the GSCN spec
    file `gscn_spec` (its DRAM, buffers and components), with `sample_tiles` grids of 64 PEs
    (the PE array's rows follow, as the parser requires); written under `work`."""
    with open(gscn_spec) as f:
        spec = f.read()
    for old, new in (("  tiling: split_filters", "  tiling: planar"),
                     ("  predictor: true", "  predictor: false"),
                     ("  sample_tiles: %d" % GSCN_TILES, "  sample_tiles: %d" % sample_tiles),
                     ("  rows: %d " % GSCN_TILES, "  rows: %d " % sample_tiles)):
        assert old in spec, "%s: no `%s` to change" % (gscn_spec, old)
        spec = spec.replace(old, new, 1)
    name = os.path.splitext(os.path.basename(gscn_spec))[0]
    path = os.path.join(work, "%s_scnn%d.yaml" % (name, sample_tiles))
    with open(path, "w") as f:
        f.write(spec)
    return path


def load_generator():
    return load_module("resprop_profile", GENERATOR)


# What a run stores in WORK/results.json besides its runs' JSON, and --report-only reads.
STORED_KEYS = ("commit", "date", "wall_seconds", "cpu_seconds", "search", "networks",
               "commands", "runs")


class Runner:
    """Runs trainloop subcommands and keeps each one's JSON (`recorded`, by `key`), so
    the document can be rendered again from them; or, given `stored` runs, returns those
    instead of running anything (--report-only)."""

    def __init__(self, trainloop, search, log, work, stored=None, replay=None):
        self.trainloop, self.search, self.log, self.work = trainloop, search, log, work
        self.stored = stored
        self.recorded = {}
        # --replay: the stored runs whose key this pattern finds are run again and compared.
        self.replay = replay
        self.replayed, self.changed = 0, []  # [(key, first difference)]

    def key(self, command):
        """The command without the binary, its paths relative to WORK and the checkout: the
        same run has the same key wherever the work directory and the checkout are."""
        def relative(argument):
            for prefix, name in ((self.work, "WORK"), (ROOT, "ROOT")):
                if argument.startswith(prefix + os.sep):
                    return name + argument[len(prefix):]
            return argument
        return " ".join(relative(a) for a in command[1:])

    def train_cost(self, arch, network, batch, profile, iterations, phase, dataflow=DATAFLOW,
                   search=None, evaluator=None):
        """evaluator "cartesian": GSCN's own dataflow from the spec's cartesian_product
        section (docs/cartesian_product.md), no search; None: loop-nest mappings searched."""
        command = [self.trainloop, "train-cost", "--arch", arch, "--workload", network,
                   "--batch", str(batch), "--phase", phase, "--sparsity", profile,
                   "--iterations", str(iterations)]
        if evaluator:
            command += ["--evaluator", evaluator]
        else:
            command += ["--dataflow", dataflow] + (search or self.search).options() + [
                "--seed", "1"]
        return self.run(command + ["--format", "json", "--quiet"])


    def cartesian(self, network, rule, pes=SCNN_PES, vectors=SCNN_VECTORS):
        # Batch 1: every count scales with the batch, the shares do not.
        command = [self.trainloop, "cartesian", "--workload", network, "--batch", "1",
                   "--phase", "wu", "--pes", pes, "--vectors", vectors, "--banks",
                   str(SCNN_BANKS), "--unused-rule", rule, "--format", "json"]
        return self.run(command)


    def cartesian_cycles(self, network, tiling, predictor, profile, batch=1, tiles=1,
                         zeros="expected"):
        """Every phase's Cartesian-product cycles (`totals`) on GSCN's or SCNN's array
        (Table 7.9: 64 PEs a tile, 4x4, 32 banks) with `tiles` tiles taking different
        samples; profile None: dense operands; `zeros`: `cartesian --zeros`."""
        command = [self.trainloop, "cartesian", "--workload", network, "--batch", str(batch),
                   "--pes", SCNN_PES, "--tiles", str(tiles), "--vectors", SCNN_VECTORS,
                   "--banks", str(SCNN_BANKS), "--tiling", tiling, "--format", "json"]
        command += ["--predictor"] if predictor else []
        command += ["--sparsity", profile] if profile else []
        command += ["--zeros", zeros] if zeros != "expected" else []
        return self.run(command)["totals"]

    def cartesian_on(self, arch, network, profile, batch):
        """Every phase's priced totals (`cycles`, energy) of `cartesian --arch`: the array
        and its pricing from the spec file `arch`'s `cartesian_product:` section."""
        return self.run([self.trainloop, "cartesian", "--workload", network, "--batch",
                         str(batch), "--arch", arch, "--sparsity", profile, "--format",
                         "json"])["totals"]

    def run(self, command):
        """Logs `command` (a trainloop subcommand printing JSON), runs it and returns its
        JSON; a failure ends the script with its output. With stored runs: their JSON for
        this command; a command they lack ends the script (exit 2) naming it."""
        key = self.key(command)
        if self.stored is not None:
            if key not in self.stored:
                print("error: the stored runs lack `trainloop %s`; run the script without "
                      "--report-only" % key, file=sys.stderr)
                sys.exit(2)
            if self.replay and self.replay.search(key):
                self.replay_one(key, command)
            return self.stored[key]
        self.log.write(" ".join(os.path.relpath(c, ROOT) if os.path.isabs(c) else c
                                for c in command) + "\n")
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit("%s failed (%d): %s\n%s" % (command[1], done.returncode, " ".join(command),
                                                 done.stdout + done.stderr))
        result = json.loads(done.stdout)
        self.recorded[key] = scalars_and(result, ("totals",))
        return result

    def replay_one(self, key, command):
        """Runs the stored run `key` again with this binary and notes where it differs."""
        done = subprocess.run(command, capture_output=True, text=True)
        if done.returncode != 0:
            difference = "exit %d: %s" % (done.returncode, (done.stdout + done.stderr).strip())
        else:
            difference = first_difference(self.stored[key],
                                          scalars_and(json.loads(done.stdout), ("totals",)))
        self.replayed += 1
        if difference:
            self.changed.append((key, difference))


def phase_runs(runner, arch, network, profile, batch, iterations=1, **options):
    return {ph: runner.train_cost(arch, network, batch, profile, iterations, ph, **options)
            for ph in ("fw", "bw", "wu")}


def backprop_runs(runner, arch, network, profile, batch, **options):
    """One train-cost run per back-propagation phase (bw, wu) of one iteration."""
    return {ph: runner.train_cost(arch, network, batch, profile, 1, ph, **options)
            for ph in ("bw", "wu")}


@dataclass
class Results:
    """Every run the document reads, keyed as run_all made them: a network's name, or a tuple
    (network, design or variant, ...); each a train-cost or cartesian JSON (slimmed) or a dict
    of them by phase."""
    networks: list
    search: Search
    larger: Search            # the same search, four times the budget
    run: dict                 # what results.json stores: provenance and every run
    steady: dict              # ReSprop at 90 % from the first iteration, per phase
    x50: dict                 # the same, input activations at density 0.5
    standard_x50: dict        # standard training, activations at 0.5
    dense_array: dict         # standard training on the array without sparse features
    whole: dict               # the whole run, W-ReSprop (5 warm-up epochs)
    whole8: dict              # the whole run, 8 warm-up epochs
    pre: dict                 # pre-ReSprop: one sample's dense bw and wu per iteration
    with_fc: dict             # the fully connected layers sparse too (MACs only)
    other_dataflows: dict     # (network, dataflow)
    standard_relu: dict       # standard training, dy ReLU-masked where no batch norm
    larger_budget: dict       # steady, searched with `larger`
    at_edp: dict              # steady, mapped for the lowest energy-delay product
    cartesian: dict           # Table 6.1: (network, rule, PEs) -> `trainloop cartesian`
    clustered: dict           # (network, profile): SpHG gathered in some output channels
    code_density: dict        # SpHG as dense as the authors' released code aims
    own: dict                 # GSCN's own dataflow (train-cost --evaluator cartesian)
    own_whole: dict           # the same, whole run
    own_pre: dict             # the same, pre-ReSprop
    cp_cycles: dict           # (network, design, profile) -> `cartesian` totals
    priced_cp: dict           # (network, design, DRAM limit) -> `cartesian --arch` totals
    dram_limited: dict        # (network, DRAM bandwidth) -> bw and wu runs
    run_iterations: int       # the whole run's iterations (the profile generator's)


def run_all(args, stored, stored_path, work, replay):
    """Runs (or, with `stored`, reads) every run the document needs and returns them; with
    `replay`, runs the stored runs it matches again and exits naming each that differs."""
    search = search_from(args)
    # The same search with four times the budget: how far the cycle columns still move.
    larger = Search(search.strategy, 4 * search.budget, search.objective)
    # The energy column's runs: the fastest mapping (the latency objective) is
    # often far costlier than one a fraction of a per cent slower, so energy is
    # compared at the mappings with the lowest energy-delay product.
    lowest_edp = Search(search.strategy, search.budget, "edp")
    networks = stored["networks"] if stored else args.networks.split(",")
    os.makedirs(work, exist_ok=True)
    started = time.time()
    generator = load_generator()
    profiles = {}
    for name, (options, _) in PROFILES.items():
        path = os.path.join(work, "resprop_%s.yaml" % name)
        subprocess.run([sys.executable, GENERATOR, "-o", path] + options, check=True,
                       stdout=subprocess.DEVNULL)
        profiles[name] = path
    run_iterations = generator.RUN_ITERATIONS

    steady, x50, standard_x50, dense_array, whole, whole8, pre = {}, {}, {}, {}, {}, {}, {}
    with_fc, other_dataflows, standard_relu, larger_budget, at_edp = {}, {}, {}, {}, {}
    cartesian, clustered, code_density = {}, {}, {}
    # GSCN's own dataflow over the whole network (train-cost --evaluator cartesian).
    own, own_whole, own_pre = {}, {}, {}
    # (network, design, profile) -> `trainloop cartesian` totals; designs: GSCN with and
    # without its predictor (split filters, §6.4-6.5), SCNN (planar tiling, §6.3).
    cp_designs = {"gscn": ("split-filters", True), "gscn_no_predictor": ("split-filters", False),
                  "scnn": ("planar", False)}
    # The same two arrays at the thesis's sizes: GSCN 4 tiles of 64 PEs, SCNN 64 PEs, at
    # GSCN's minibatch of 64 (§7.2).
    sized_designs = {"gscn_tiles": ("split-filters", True, GSCN_TILES),
                     "scnn_64": ("planar", False, SCNN_TILES)}
    cp_cycles = {}
    priced_cp = {}
    with open(os.path.join(ROOT, "arch_specs", args.arch + ".yaml")) as f:
        gscn_file = write_spec_variant(args.arch, f.read(), "copy", work)
    dram_limited = {}
    dram_specs = {bw: arch_with_dram_bandwidth(args.arch, bw[0], work, shared=bw[1])
                  for bw in DRAM_BANDWIDTHS}
    with open(os.devnull if stored else os.path.join(work, "commands.txt"), "w") as log:
        r = Runner(args.trainloop, search, log, work, stored["runs"] if stored else None,
                   replay)
        for net in TABLE_6_1:
            for rule in ("negative-only", "outside-output"):
                for pes in (SCNN_PES, "1x1"):
                    cartesian[(net, rule, pes)] = r.cartesian(net, rule, pes)
            cartesian[(net, "negative-only", "2x2vec")] = r.cartesian(net, "negative-only",
                                                                      vectors="2x2")
        for net in networks:
            for design, (tiling, predictor) in cp_designs.items():
                for name in ("dense", "steady"):
                    cp_cycles[(net, design, name)] = r.cartesian_cycles(
                        net, tiling, predictor, profiles[name] if name == "steady" else None)
                # Random zeros move only sparse operands (docs/cartesian_product.md).
                cp_cycles[(net, design, "steady_random")] = r.cartesian_cycles(
                    net, tiling, predictor, profiles["steady"], zeros="random")
            # §8 with DNNsim's DRAM on both arrays, from spec files (cartesian --arch prices
            # the off-chip words' bandwidth bound), without and with the limit.
            for limit, gscn_spec in (("unlimited", gscn_file),
                                     ("dnnsim", dram_specs[DNNSIM_DRAM])):
                for design, spec in (("gscn", gscn_spec),
                                     ("scnn_equal", scnn_variant(gscn_spec, GSCN_TILES, work)),
                                     ("scnn_64", scnn_variant(gscn_spec, SCNN_TILES, work))):
                    priced_cp[(net, design, limit)] = r.cartesian_on(
                        spec, net, profiles["steady"], GSCN_BATCH)
            for design, (tiling, predictor, tiles) in sized_designs.items():
                for zeros in ("expected", "random"):
                    name = "steady" if zeros == "expected" else "steady_random"
                    cp_cycles[(net, design, name)] = r.cartesian_cycles(
                        net, tiling, predictor, profiles["steady"], GSCN_BATCH, tiles, zeros)
            # Standard training on GSCN at its size: what the thesis's GPU figures compare
            # SCNN with (write_scnn_reading_check); and both arrays with SpHG as dense as the
            # authors' code aims (write_gap_candidates_at_sizes).
            cp_cycles[(net, "gscn_tiles", "dense")] = r.cartesian_cycles(
                net, "split-filters", True, None, GSCN_BATCH, GSCN_TILES)
            for design, (tiling, predictor, tiles) in sized_designs.items():
                cp_cycles[(net, design, "steady_code")] = r.cartesian_cycles(
                    net, tiling, predictor, profiles["steady_code"], GSCN_BATCH, tiles)
        for net in networks:
            print("%s ..." % net, file=sys.stderr)
            steady[net] = phase_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH)
            with_fc[net] = backprop_runs(r, args.arch, net, profiles["steady_fc"], GSCN_BATCH,
                                         search=MACS_ONLY)
            larger_budget[net] = backprop_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH,
                                               search=larger)
            at_edp[net] = backprop_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH,
                                        search=lowest_edp)
            for dataflow in OTHER_DATAFLOWS:
                other_dataflows[(net, dataflow)] = backprop_runs(
                    r, args.arch, net, profiles["steady"], GSCN_BATCH, dataflow=dataflow)
            x50[net] = phase_runs(r, args.arch, net, profiles["steady_x50"], GSCN_BATCH)
            standard_x50[net] = phase_runs(r, args.arch, net, profiles["standard_x50"], GSCN_BATCH)
            standard_relu[net] = backprop_runs(r, args.arch, net, profiles["standard_x50_relu"],
                                               GSCN_BATCH)
            for name, _ in CLUSTER_CVS:
                clustered[(net, name)] = backprop_runs(r, args.arch, net, profiles[name],
                                                       GSCN_BATCH)
            code_density[net] = backprop_runs(r, args.arch, net, profiles["steady_code"],
                                              GSCN_BATCH)
            for bw, spec in dram_specs.items():
                dram_limited[(net, bw)] = backprop_runs(r, spec, net, profiles["steady"],
                                                        GSCN_BATCH)
            dense_array[net] = phase_runs(r, args.dense_arch, net, "dense", GSCN_BATCH)
            whole[net] = r.train_cost(args.arch, net, TRAIN_BATCH, profiles["shipped"],
                                      run_iterations, "all")
            whole8[net] = r.train_cost(args.arch, net, TRAIN_BATCH, profiles["warmup8"],
                                       run_iterations, "all")
            # Alg. 1 lines 4-5 (stochastic mode, eq. 5.4): pre-ReSprop convolves one
            # sample's previous output gradient with w and with the averaged input: one
            # sample's dense bw and wu per iteration.
            pre[net] = {ph: r.train_cost(args.arch, net, 1, "dense", run_iterations, ph)
                        for ph in ("bw", "wu")}
            own[net] = phase_runs(r, args.arch, net, profiles["steady"], GSCN_BATCH,
                                  evaluator="cartesian")
            own_whole[net] = r.train_cost(args.arch, net, TRAIN_BATCH, profiles["shipped"],
                                          run_iterations, "all", evaluator="cartesian")
            own_pre[net] = {ph: r.train_cost(args.arch, net, 1, "dense", run_iterations, ph,
                                             evaluator="cartesian")
                            for ph in ("bw", "wu")}
    if replay:
        if not r.replayed:
            print("error: --replay %s finds no stored run" % args.replay, file=sys.stderr)
            sys.exit(2)
        report_replay(r.replayed, ["trainloop %s\n  %s" % change for change in r.changed],
                      "stored runs", args.trainloop, "resprop")
    if stored:
        run = stored
    else:
        run = {"commit": git_commit(), "date": datetime.date.today().isoformat(),
               "wall_seconds": time.time() - started, "cpu_seconds": children_cpu_seconds(),
               "search": search.stored(), "networks": networks,
               "commands": os.path.relpath(os.path.join(work, "commands.txt"), ROOT),
               "runs": r.recorded}
        assert set(run) == set(STORED_KEYS)
        write_stored_runs(stored_path, run)
    return Results(
        networks=networks, search=search, larger=larger, run=run, steady=steady, x50=x50,
        standard_x50=standard_x50, dense_array=dense_array, whole=whole, whole8=whole8,
        pre=pre, with_fc=with_fc, other_dataflows=other_dataflows,
        standard_relu=standard_relu, larger_budget=larger_budget, at_edp=at_edp,
        cartesian=cartesian, clustered=clustered, code_density=code_density, own=own,
        own_whole=own_whole, own_pre=own_pre, cp_cycles=cp_cycles, priced_cp=priced_cp,
        dram_limited=dram_limited, run_iterations=run_iterations)
