"""Running trainloop for the document: each network's whole runs, one iteration's maps
(Figs. 19-20), the SCNN baseline's Cartesian-product runs; storing them, resuming an
interrupted run and replaying a network's stored runs."""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time

import yaml

from reproduction_support import (
    MACS_ONLY, ROOT, arch_with_dram_bandwidth, children_cpu_seconds, first_difference,
    git_commit, load_module, read_stored_runs, refuse_resume_if_model_changed, scalars_and,
    write_spec_variant, write_stored_runs)

from .measures import pct
from .readings import (
    ARRAY_OPTIONS, CX_UNITS, DDR4_WHOLE_RUN, DDR4_WORDS, FF_READINGS, FILTER_SPREADS,
    GENERATOR, LSTM_VARIANTS, MAC_LAYER_TYPES, NETWORK_GENERATOR, RC_BOUNDS, RC_READINGS,
    SCNN_ARCH, SCNN_READINGS, VARIANTS, WINDOWS, ddr4_key)


def pruned_layers_network(generator, net, work):
    """workloads/`net`.yaml without the MAC layers EP does not prune and what reads from them
    (a CNN's fully connected layers and their ReLUs), written to `work`: the run's RC is then
    over the pruned layers' MACs only. The network keeps its name, so the profile's rule for
    it still applies."""
    with open(os.path.join(ROOT, "workloads", net + ".yaml")) as f:
        spec = yaml.safe_load(f)
    pruned = {name for name, _ in generator.pruned_layers(net)}
    dropped = set()
    for layer in spec["layers"]:
        inputs = layer["inputs"] if isinstance(layer["inputs"], list) else [layer["inputs"]]
        if ((layer.get("type") in MAC_LAYER_TYPES and layer["name"] not in pruned)
                or any(i in dropped for i in inputs)):
            dropped.add(layer["name"])
    spec["layers"] = [layer for layer in spec["layers"] if layer["name"] not in dropped]
    path = os.path.join(work, "%s_pruned_layers.yaml" % net)
    with open(path, "w") as f:
        yaml.safe_dump(spec, f, sort_keys=False)
    return path


def load_generator():
    return load_module("eager_pruning_profile", GENERATOR)


def write_profile(work, variant, options):
    path = os.path.join(work, "eager_pruning_%s.yaml" % variant)
    subprocess.run([sys.executable, GENERATOR, "-o", path] + options, check=True)
    return path


def run_json(command, log, what):
    """Runs a trainloop command that prints JSON; a failure raises RunFailed with its
    message (reported in the document, not hidden: the network's rows are left out)."""
    log.write(" ".join(command) + "\n")
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        try:
            error = json.loads(done.stdout).get("error", {})
            message = error.get("message", "") if isinstance(error, dict) else str(error)
        except ValueError:
            message = ((done.stdout + done.stderr).strip().splitlines() or [""])[0]
        raise RunFailed("%s: %s" % (what, message or "exit %d" % done.returncode))
    return json.loads(done.stdout)


def train_cost(trainloop, arch, network, batch, profile, iterations, search, log, extra=()):
    command = [trainloop, "train-cost", "--arch", arch, "--workload", network, "--batch",
               str(batch), "--sparsity", profile, "--iterations", str(iterations)
               ] + search.options() + ARRAY_OPTIONS + ["--seed", "1", "--format", "json",
                                                       "--quiet"] + list(extra)
    return run_json(command, log, search)


class RunFailed(Exception):
    pass


def map_iteration(trainloop, arch, network, batch, profile, iteration, search, log, extra=()):
    """`trainloop map` of one training iteration (dense when profile is None)."""
    command = [trainloop, "map", "--arch", arch, "--workload", network, "--batch", str(batch)
               ] + list(extra)
    if profile is not None:
        command += ["--sparsity", profile, "--iteration", str(iteration)]
    command += search.options() + ARRAY_OPTIONS + ["--seed", "1", "--format", "json", "--quiet"]
    return run_json(command, log, "map, %s" % search)


def run_fig20(args, net, iterations, batch, spread_profiles, at_cr_profile, fig20, log):
    """One iteration after the last pruning, dense and under each filter spread, on both
    architectures: Fig. 20's bars; and on EP's, one iteration of the network at Table 5's CR
    (`at_cr_profile`, pruned to it at iteration 0: the same as the last iteration wherever
    the run reaches the CR), Fig. 19(b)'s other reading."""
    fig20[(net, args.arch, "at_cr")] = map_iteration(args.trainloop, args.arch, net, batch,
                                                     at_cr_profile, iterations, args.search, log)
    units = ["--constraints", args.cx_units]
    for key, arch, extra in ((args.arch, args.arch, []), (args.baseline, args.baseline, []),
                             ("cx_units", args.baseline, units)):
        fig20[(net, key, "dense")] = map_iteration(args.trainloop, arch, net, batch, None,
                                                   iterations, args.search, log, extra)
        for spread, _, _ in FILTER_SPREADS:
            fig20[(net, key, spread)] = map_iteration(args.trainloop, arch, net, batch,
                                                      spread_profiles[spread], iterations,
                                                      args.search, log, extra)


def run_fig20_windows(args, net, iterations, batch, profile, fig20, log):
    """Fig. 20's dense and uniformly pruned iteration on both architectures (CX as the spec
    gives it) with the positions in partial steps (`--imperfect-windows`, as run_windows)."""
    for arch in (args.arch, args.baseline):
        for spread, sparsity in (("dense", None), ("shipped", profile)):
            fig20[(net, arch + WINDOWS, spread)] = map_iteration(
                args.trainloop, arch, net, batch, sparsity, iterations, args.search, log,
                ["--imperfect-windows"])


def run_fig20_ddr4(args, net, iterations, batch, profile, fig20, log):
    """Fig. 20's dense and uniformly pruned iteration on both architectures (CX as the spec
    gives it) with the DRAM limited to each DDR4 bandwidth."""
    for words, _ in DDR4_WORDS:
        for arch in (args.arch, args.baseline):
            spec = ddr4_spec(arch, words, args.work)
            key = ddr4_key(arch, words)
            fig20[(net, key, "dense")] = map_iteration(args.trainloop, spec, net, batch, None,
                                                       iterations, args.search, log)
            fig20[(net, key, "shipped")] = map_iteration(args.trainloop, spec, net, batch,
                                                         profile, iterations, args.search, log)


def scnn_spec(work, bank_stalls):
    """EP's SCNN baseline spec, with `bank_stalls` ("none" as shipped): the shipped file, or a
    copy under `work` with the other model."""
    path = os.path.join(ROOT, "arch_specs", SCNN_ARCH + ".yaml")
    with open(path) as f:
        spec = f.read()
    if "bank_stalls: %s\n" % bank_stalls in spec:
        return path
    return write_spec_variant(SCNN_ARCH, spec.replace("bank_stalls: none\n", "bank_stalls: %s\n"
                                                      % bank_stalls), bank_stalls, work)


def cartesian_iteration(trainloop, spec, network, batch, profile, iteration, fc, log):
    """`trainloop cartesian --arch` of one training iteration, every phase (dense when profile
    is None): SCNN's dataflow, no search."""
    command = [trainloop, "cartesian", "--arch", spec, "--workload", network, "--batch",
               str(batch), "--phase", "all", "--format", "json"] + (["--fc"] if fc else [])
    if profile is not None:
        command += ["--sparsity", profile, "--iteration", str(iteration)]
    return run_json(command, log, "cartesian")


def run_scnn(args, net, iterations, batch, profile, fig20, log):
    """One iteration on EP's SCNN baseline after the last pruning, dense and pruned, under
    each reading of SCNN_READINGS: Fig. 19's and Fig. 21's SCNN bars and §5.4's hybrid."""
    for key, fc, stalls, _ in SCNN_READINGS:
        spec = scnn_spec(args.work, stalls)
        for spread, sparsity in (("dense", None), ("shipped", profile)):
            fig20[(net, key, spread)] = cartesian_iteration(args.trainloop, spec, net, batch,
                                                            sparsity, iterations, fc, log)


def ddr4_spec(arch, words, work):
    """arch_specs/`arch`.yaml with its DRAM at `words` words per cycle, reads and writes on one
    bus, as a DDR interface moves them."""
    return arch_with_dram_bandwidth(arch, words, work, shared=True)


def reading_profile(options):
    """The key (and file suffix) of the profile an RC reading runs: the shipped one, or the
    generator's options joined."""
    return "shipped" if not options else "_".join(o.strip("-").replace("-", "_")
                                                  for o in options)


def run_network(args, net, iterations, batch, profiles, runs, log):
    for variant, _, _ in VARIANTS:
        search = args.search if variant == "shipped" else MACS_ONLY
        runs[(net, variant)] = train_cost(args.trainloop, args.arch, net, batch, profiles[variant],
                                          iterations, search, log)
        print("%s %s: RC %s" % (net, variant, pct(runs[(net, variant)]["macs_removed_fraction"])),
              file=sys.stderr)
    pruned_layers = pruned_layers_network(load_generator(), net, args.work)
    for reading, options, pruned_only, _, _ in RC_READINGS + RC_BOUNDS:
        network = pruned_layers if pruned_only else net
        runs[(net, reading)] = train_cost(args.trainloop, args.arch, network, batch,
                                          profiles[reading_profile(options)], iterations,
                                          MACS_ONLY, log)
        print("%s %s: RC %s" % (net, reading, pct(runs[(net, reading)]["macs_removed_fraction"])),
              file=sys.stderr)
    runs[(net, "baseline")] = train_cost(args.trainloop, args.baseline, net, batch,
                                         profiles["shipped"], iterations, args.search, log)
    runs[(net, "baseline_units")] = train_cost(
        args.trainloop, args.baseline, net, batch, profiles["shipped"], iterations, args.search,
        log, ["--constraints", args.cx_units])
    words = DDR4_WHOLE_RUN[0]
    for arch in (args.arch, args.baseline):
        runs[(net, ddr4_key(arch, words))] = train_cost(
            args.trainloop, ddr4_spec(arch, words, args.work), net, batch,
            profiles["shipped"], iterations, args.search, log)
    # §5.4: dense training on FlexFlow (a dense design: the profile would change nothing).
    runs[(net, "flexflow")] = train_cost(args.trainloop, args.flexflow, net, batch, "dense",
                                         iterations, args.search, log)
    runs[(net, ddr4_key(args.flexflow, words))] = train_cost(
        args.trainloop, ddr4_spec(args.flexflow, words, args.work), net, batch,
        "dense", iterations, args.search, log)
    # §5.3: "CX works the best in KU": the dense kernel update alone on FF and on CX.
    for key, arch in (("flexflow_wu", args.flexflow), ("baseline_wu", args.baseline)):
        runs[(net, key)] = train_cost(args.trainloop, arch, net, batch, "dense", iterations,
                                      args.search, log, ["--phase", "wu"])
    # How far the search leaves the baselines: their dense training (one density state)
    # searched until converged, against the fixed budget above.
    for key, arch in (("baseline_converged", args.baseline),
                      ("flexflow_converged", args.flexflow)):
        runs[(net, key)] = train_cost(args.trainloop, arch, net, batch, "dense", iterations,
                                      args.search.until_converged(), log)
    # FF held to EP's dataflow, each reading of its KU: the whole run and its KU alone.
    for key, _, _ in FF_READINGS:
        constraints = ["--constraints", ff_reading_file(args.work, key)]
        runs[(net, key)] = train_cost(args.trainloop, args.flexflow, net, batch, "dense",
                                      iterations, args.search, log, constraints)
        runs[(net, key + "_wu")] = train_cost(args.trainloop, args.flexflow, net, batch, "dense",
                                              iterations, args.search, log,
                                              constraints + ["--phase", "wu"])
    run_windows(args, net, iterations, batch, profiles, runs, log)


def run_windows(args, net, iterations, batch, profiles, runs, log):
    """§5.4's runs again with the positions in partial steps: EP's and CX's whole runs, FF's
    dense training as shipped and under each of FF_READINGS, and the kernel update alone on
    CX and under each reading."""
    windows = ["--imperfect-windows"]
    for key, arch in (("shipped", args.arch), ("baseline", args.baseline)):
        runs[(net, key + WINDOWS)] = train_cost(args.trainloop, arch, net, batch,
                                                profiles["shipped"], iterations, args.search,
                                                log, windows)
    runs[(net, "flexflow" + WINDOWS)] = train_cost(args.trainloop, args.flexflow, net, batch,
                                                   "dense", iterations, args.search, log,
                                                   windows)
    runs[(net, "baseline_wu" + WINDOWS)] = train_cost(
        args.trainloop, args.baseline, net, batch, "dense", iterations, args.search, log,
        windows + ["--phase", "wu"])
    for key, _, _ in FF_READINGS:
        constraints = ["--constraints", ff_reading_file(args.work, key)] + windows
        runs[(net, key + WINDOWS)] = train_cost(args.trainloop, args.flexflow, net, batch,
                                                "dense", iterations, args.search, log,
                                                constraints)
        runs[(net, key + "_wu" + WINDOWS)] = train_cost(
            args.trainloop, args.flexflow, net, batch, "dense", iterations, args.search, log,
            constraints + ["--phase", "wu"])


def ff_reading_file(work, key):
    """The constraints file of one of FF_READINGS in the work directory."""
    return os.path.join(work, key + ".yaml")


def run_lstm_variants(args, generator, runs, log):
    """The LSTM row again for each network shape the paper leaves open, and one step at a time.

    Every variant is a network file written by generate_networks.lstm_timit and its
    own profile (the schedule depends on the pruned weights W)."""
    networks = load_module("generate_networks", NETWORK_GENERATOR)
    iterations, batch = generator.TABLE_5["lstm_timit"][:2]
    shapes = [(v, kw) for v, kw, _ in LSTM_VARIANTS] + [("one_step", {"steps": 1})]
    for variant, kwargs in shapes:
        net_file = os.path.join(args.work, "lstm_timit_%s.yaml" % variant)
        with open(net_file, "w") as f:
            f.write(networks.lstm_timit(**kwargs).to_yaml())
        profile = os.path.join(args.work, "eager_pruning_lstm_%s.yaml" % variant)
        subprocess.run([sys.executable, GENERATOR, "-o", profile, "--only", "lstm_timit",
                        "--network", "lstm_timit=" + net_file], check=True)
        # The shipped shape and one frame at a time give the latency bracket; the rest an RC.
        search = args.search if variant in ("shipped", "one_step") else MACS_ONLY
        run = train_cost(args.trainloop, args.arch, net_file, batch, profile, iterations,
                         search, log)
        run["pruned_weights"] = sum(w for _, w in generator.pruned_layers("lstm_timit", net_file))
        runs[("lstm_timit", "shape_" + variant)] = run
        print("lstm_timit shape %s: RC %s" % (variant, pct(run["macs_removed_fraction"])),
              file=sys.stderr)


def write_run_inputs(args):
    """Writes what the runs read into args.work: the profiles (returned: by variant, and by
    filter spread), CX's eight-unit constraints (args.cx_units) and FF's readings."""
    profiles = {v: write_profile(args.work, v, opts) for v, opts, _ in VARIANTS}
    for _, options, _, _, _ in RC_READINGS + RC_BOUNDS:
        key = reading_profile(options)
        if key not in profiles:
            profiles[key] = write_profile(args.work, key, options)
    spread_profiles = {v: (profiles["shipped"] if v == "shipped" else
                           write_profile(args.work, v, opts))
                       for v, opts, _ in FILTER_SPREADS}
    args.cx_units = os.path.join(args.work, "cx_eight_units.yaml")
    with open(args.cx_units, "w") as f:
        f.write(CX_UNITS)
    for key, text, _ in FF_READINGS:
        with open(ff_reading_file(args.work, key), "w") as f:
            f.write(text)
    return profiles, spread_profiles


def run_all_of(args, generator, net, profiles, spread_profiles, runs, fig20, log):
    """Every run of network `net` (the LSTM's shape variants aside): its whole runs into
    `runs` and, for a CNN, Fig. 20's iterations into `fig20`."""
    iterations, batch = generator.TABLE_5[net][0], generator.TABLE_5[net][1]
    run_network(args, net, iterations, batch, profiles, runs, log)
    if net != "lstm_timit":  # Fig. 20 shows the CNNs
        run_fig20(args, net, iterations, batch, spread_profiles,
                  profiles[reading_profile(["--at-once"])], fig20, log)
        run_fig20_ddr4(args, net, iterations, batch, profiles["shipped"], fig20, log)
        run_fig20_windows(args, net, iterations, batch, profiles["shipped"], fig20, log)
        run_scnn(args, net, iterations, batch, profiles["shipped"], fig20, log)


def replay_network(args, generator, net, stored):
    """Runs every run of `net` again with args.trainloop, in a scratch directory, and returns
    how many it compared and, for each that differs from `stored`, "key: first difference"
    (reproduction_support.first_difference)."""
    runs, fig20 = {}, {}
    with tempfile.TemporaryDirectory() as scratch:
        args = argparse.Namespace(**vars(args))  # the caller's args keep their work directory
        args.work = scratch
        profiles, spread_profiles = write_run_inputs(args)
        with open(os.devnull, "w") as log:
            run_all_of(args, generator, net, profiles, spread_profiles, runs, fig20, log)
    changed, compared = [], 0
    for name, replayed in (("runs", runs), ("fig20", fig20)):
        for key, run in replayed.items():
            compared += 1
            if key not in stored[name]:
                changed.append("%s: not stored" % "|".join(key))
                continue
            difference = first_difference(stored[name][key], slim(run))
            if difference:
                changed.append("%s: %s" % ("|".join(key), difference))
    return compared, changed


def run_everything(args, generator, networks, results_path):
    """Every run the document reads; returns them with the networks that ran, the failures,
    and the wall and CPU seconds. Saves them to `results_path` after each network, so an
    interrupted run keeps what it ran; with --resume, the networks stored there are not run
    again."""
    started = time.time()
    stored = {"networks": [], "failed": {}, "runs": {}, "fig20": {}, "done": [],
              "wall": 0.0, "cpu_seconds": 0.0, "commit": git_commit(),
              "search": args.search.stored(),
              "commands": os.path.relpath(os.path.join(args.work, "commands.txt"), ROOT)}
    if args.resume and os.path.exists(results_path):
        stored = load_results(results_path)
        check_resumable(stored, args, results_path)
    earlier_wall, earlier_cpu = stored["wall"], stored["cpu_seconds"]
    done = stored.setdefault("done", list(stored["networks"]) + list(stored["failed"]))
    runs, fig20, failed = stored["runs"], stored["fig20"], stored["failed"]

    def save():
        stored["networks"] = [n for n in networks if n in done and n not in failed]
        stored["wall"] = earlier_wall + time.time() - started
        stored["cpu_seconds"] = earlier_cpu + children_cpu_seconds()
        stored["date"] = datetime.date.today().isoformat()
        save_results(results_path, stored)

    profiles, spread_profiles = write_run_inputs(args)
    with open(os.path.join(args.work, "commands.txt"), "a" if args.resume else "w") as log:
        for net in networks:
            if net in done:
                continue
            try:
                run_all_of(args, generator, net, profiles, spread_profiles, runs, fig20, log)
            except RunFailed as e:
                failed[net] = str(e)
                print("%s: %s" % (net, e), file=sys.stderr)
            done.append(net)
            save()
        if "lstm_timit" in networks and "lstm_timit" not in failed and \
                ("lstm_timit", "shape_one_step") not in runs:
            run_lstm_variants(args, generator, runs, log)
    save()
    return stored


def check_resumable(stored, args, results_path):
    """Refuses to resume runs made with another search or another model (exit 2)."""
    search = args.search.stored()
    if stored.get("search") != search:
        print("error: %s: the stored runs searched with %s, this run with %s; run without "
              "--resume, or with the stored search" % (results_path, stored.get("search"),
                                                       search), file=sys.stderr)
        sys.exit(2)
    inputs = ["arch_specs/%s.yaml" % a
              for a in (args.arch, args.baseline, args.flexflow, SCNN_ARCH)] + [
        "workloads", os.path.relpath(GENERATOR, ROOT)]
    refuse_resume_if_model_changed(results_path, stored.get("commit", "unknown"), inputs)


def slim(result):
    """What the document reads of one run's JSON: its scalars, a map's per-phase `totals`
    and, of a sparse map, each layer-phase's effectual MACs (pruning_bound). The per-sample
    tables and the mappings are left out: a network's runs would take megabytes, and
    tests/golden keeps every network's."""
    kept = scalars_and(result, ("totals",))
    layers = result.get("layers", [])
    if any("effectual_macs" in entry for layer in layers
           for entry in layer.get("phases", {}).values()):
        kept["layers"] = [{"phases": {phase: {"effectual_macs": entry["effectual_macs"]}
                                      for phase, entry in layer["phases"].items()}}
                          for layer in layers]
    return kept


def save_results(path, stored):
    """The runs as JSON (tuple keys joined by `|`, each run `slim`), so --report-only
    renders without running."""
    flat = dict(stored)
    for name in ("runs", "fig20"):
        flat[name] = {"|".join(key): slim(value) for key, value in stored[name].items()}
    write_stored_runs(path, flat)


def load_results(path):
    stored = read_stored_runs(path, "run without --report-only first")
    for name in ("runs", "fig20"):
        stored[name] = {tuple(key.split("|")): value for key, value in stored[name].items()}
    return stored
