"""What every scripts/reproduce_*.py needs: the repository root, the commit
a report was generated at, the CPU time of the trainloop runs, how a run
searches its mappings, and loading a profile generator from workloads/tools/
as a module."""

import difflib
import importlib.util
import json
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def git_commit():
    """The short hash of HEAD, or "unknown" outside a git checkout."""
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# What every run's figures depend on: the engine, the CLI and the component libraries;
# a report adds its own specs, networks and profiles.
ENGINE_PATHS = ["engine", "mappers", "cli", "arch_specs/components"]


def model_files_changed(commit, inputs, root=ROOT):
    """The files of ENGINE_PATHS and `inputs` (paths relative to the repository, git
    pathspecs) that differ between `commit` and the working tree, or None when git cannot
    tell (no checkout, or a commit it does not know)."""
    try:
        done = subprocess.run(["git", "-C", root, "diff", "--name-only", commit, "--"]
                              + ENGINE_PATHS + list(inputs),
                              capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.split()


def refuse_resume_if_model_changed(results_path, commit, inputs, root=ROOT):
    """--resume of runs made at `commit`: exits 2 naming the files of the model (ENGINE_PATHS
    and `inputs`) changed since, so that no report compares figures of two models; warns
    and goes on when git cannot tell."""
    changed = model_files_changed(commit, inputs, root)
    if changed is None:
        print("warning: %s: cannot tell whether the model changed since commit %s, which made "
              "the stored runs; resuming" % (results_path, commit), file=sys.stderr)
    elif changed:
        print("error: %s: the stored runs were made at commit %s, and %d file(s) of the model "
              "changed since (%s%s); run without --resume to run everything again"
              % (results_path, commit, len(changed), ", ".join(changed[:5]),
                 ", ..." if len(changed) > 5 else ""), file=sys.stderr)
        sys.exit(2)


def shipped_networks():
    """The network names `--workload` takes: the files of workloads/."""
    return sorted(name[:-len(".yaml")] for name in os.listdir(os.path.join(ROOT, "workloads"))
                  if name.endswith(".yaml"))


def network_names(parser, option, values, known):
    """The network names of an option's values (each a comma-separated list), checked
    against `known` (check_names)."""
    names = [name for value in values for name in value.split(",") if name]
    check_names(parser, option, names, known)
    return names


def check_names(parser, option, given, known):
    """Exits 2 (argparse's usage error) at the first of `given` not in `known`, naming the
    option, the nearest known name and every known one, instead of a traceback or a run
    that has nothing to do."""
    if not given:
        parser.error("%s: no network given; expected one or more of: %s"
                     % (option, ", ".join(known)))
    for name in given:
        if name not in known:
            near = difflib.get_close_matches(name, known, n=1)
            parser.error("%s: unknown network `%s`%s; expected one of: %s" % (
                option, name, " (did you mean `%s`?)" % near[0] if near else "",
                ", ".join(known)))


def require_trainloop(path):
    """Exits 2 naming `path` (the --trainloop option) when no executable is there, instead
    of a traceback from the first run. Then points every trainloop run of this process at
    this checkout's shipped specs, networks and profiles (TRAINLOOP_DATA_DIR): a binary
    resolves a shipped name such as `--arch chen2024_dual_8x8` in the source tree it was
    built from, which for a binary built elsewhere (another worktree, an older build) is
    not the tree whose specs the report describes."""
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        print("error: --trainloop %s: no executable trainloop there; build it (scripts/build.sh "
              "build), or run scripts/reproduce.sh, which builds it first" % path,
              file=sys.stderr)
        sys.exit(2)
    os.environ["TRAINLOOP_DATA_DIR"] = ROOT


def children_cpu_seconds():
    """User + system seconds of the finished child processes (the trainloop runs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# The reproductions' target (issues #17 and #18): trainloop's figure within ±20 % of the
# paper's, or the difference explained.
TARGET_TOLERANCE = 0.20


def within_target(ratio):
    """Whether trainloop's figure over the paper's, `ratio`, is within the target."""
    return abs(ratio - 1) <= TARGET_TOLERANCE


def ratio_text(ratio):
    """A ratio as the documents print it: two decimals, or three where two would round it
    across the target's edge (0.796 would print as 0.80, which reads as within it)."""
    text = "%.2f" % ratio
    if within_target(float(text)) != within_target(ratio):
        text = "%.3f" % ratio
    return text


def verdict_words(ratio):
    """`within_target` in words."""
    return "within ±20 %" if within_target(ratio) else "**outside ±20 %**"


def target_verdict(ratio):
    """`within_target` as the documents print it beside a ratio printed to two decimals:
    where that ratio reads the other way, with its third decimal."""
    if ratio_text(ratio) != "%.2f" % ratio:
        return "%s: %s unrounded" % (verdict_words(ratio), ratio_text(ratio))
    return verdict_words(ratio)


class TargetSummary:
    """The figures a reproduction compares with its paper's, gathered as its sections compute
    them, and rendered once as a table near the top of the document: each claim's figure as
    shipped, whether it is within the target, and the readings under the document's sourced
    alternatives (each figure there is computed by the section that discusses it)."""

    def __init__(self):
        self.rows = []          # [claim, case, paper text, trainloop text, ratio]
        self.alternatives = {}  # (claim, case) -> [(reading, ratio), ...]

    def add(self, claim, case, paper, ours, ratio):
        """One compared figure; `ratio` is trainloop's over the paper's."""
        self.rows.append([claim, case, paper, ours, ratio])

    def alternative(self, claim, case, reading, ratio):
        """The ratio the figure of (claim, case) takes under `reading`, an assumption the
        document states and sources where the shipped model is silent or differs."""
        self.alternatives.setdefault((claim, case), []).append((reading, ratio))

    def lines(self, section_names):
        """The summary: a sentence with the counts, then the table. `section_names`: what to
        call the document's sections in the sentence (e.g. "the sections below")."""
        unknown = set(self.alternatives) - {(r[0], r[1]) for r in self.rows}
        assert not unknown, "alternatives for figures never added: %s" % sorted(unknown)
        within = [r for r in self.rows if within_target(r[4])]
        rescued = [r for r in self.rows if not within_target(r[4]) and any(
            within_target(ratio) for _, ratio in self.alternatives.get((r[0], r[1]), []))]
        out = ["Figures compared: %d. Within ±%d %% as shipped: %d. Within it only under one "
               "of the sourced alternatives that %s state and measure: %d. Within it under "
               "neither: %d. An alternative is one assumption unless it names two, measured on "
               "the figures its section names; different figures may be within the target "
               "under different ones." % (len(self.rows), round(100 * TARGET_TOLERANCE),
                                          len(within), section_names, len(rescued),
                                          len(self.rows) - len(within) - len(rescued)), "",
               "| claim | case | paper | trainloop | ratio | target | under a sourced "
               "alternative (ratio) |", "|---|---|---:|---:|---:|---|---|"]
        claims = list(dict.fromkeys(r[0] for r in self.rows))  # in the order first added
        for claim, case, paper, ours, ratio in sorted(self.rows,
                                                      key=lambda r: claims.index(r[0])):
            alternatives = self.alternatives.get((claim, case), [])
            out.append("| %s | %s | %s | %s | %s | %s | %s |"
                       % (claim, case, paper, ours, ratio_text(ratio), verdict_words(ratio),
                          "; ".join("%s: %s" % (a[0], ratio_text(a[1])) for a in alternatives)
                          if alternatives else "—"))
        return out

    def section(self, source):
        """The summary as the document's section "Targets at a glance", under its title and a
        sentence on what it holds; `source`: what the document reproduces ("paper",
        "thesis")."""
        return ["## Targets at a glance", "",
                "Each figure of the %s this document compares, as shipped (the setup above), "
                "and the ratio it takes under each sourced alternative a section below states "
                "and measures (an assumption where the %s is silent, with its source there). The "
                "sections give each figure's direction and what is left unexplained."
                % (source, source), ""] + self.lines("the sections below") + [""]


def write_document(path, lines):
    """Writes a reproduction document's lines to `path` and says so on stderr."""
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("wrote %s" % os.path.relpath(path, ROOT), file=sys.stderr)


def read_stored_runs(path, what_to_do, required=()):
    """The runs an earlier report stored as JSON at `path`. A missing, unreadable or
    damaged file, or one without a key of `required`, is an error naming the file (and
    the key) and `what_to_do` (exit 2), not a traceback."""
    try:
        with open(path) as f:
            stored = json.load(f)
    except FileNotFoundError:
        problem = "no stored runs"
    except OSError as e:
        problem = "cannot read the stored runs (%s)" % e.strerror
    except json.JSONDecodeError as e:
        problem = "the stored runs are not valid JSON (line %d, column %d: %s)" % (
            e.lineno, e.colno, e.msg)
    else:
        missing = [key for key in required if key not in stored] \
            if isinstance(stored, dict) else []
        if isinstance(stored, dict) and not missing:
            return stored
        problem = ("the stored runs lack `%s`, which this script stores" % missing[0]
                   if missing else "the stored runs are not a JSON object")
    print("error: %s: %s; %s" % (path, problem, what_to_do), file=sys.stderr)
    sys.exit(2)


def write_stored_runs(path, stored):
    """Writes `stored` as JSON to `path` through a temporary file renamed over it, so an
    interruption while writing leaves the earlier runs whole."""
    temporary = path + ".tmp"
    try:
        with open(temporary, "w") as f:
            json.dump(stored, f, indent=1)
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def scalars_and(result, keep=()):
    """Of one run's JSON, its scalars and the sub-objects named in `keep`: what a document
    reads, without the per-sample tables and mappings that would make its stored runs
    megabytes (the documents' tests keep them in tests/golden)."""
    kept = {k: v for k, v in result.items() if not isinstance(v, (dict, list))}
    kept.update({k: result[k] for k in keep if k in result})
    return kept


# How far a replayed figure may move before it counts as changed: the same binary gives the
# same figures, but a sum over threads may add in another order on another machine.
REPLAY_RELATIVE_TOLERANCE = 1e-9


def first_difference(stored, replayed, where=""):
    """Where a stored run and the same command run again differ, as "field: stored →
    replayed", or None. Paths are compared by file name (the runs wrote their profiles and
    spec variants to another work directory); numbers to REPLAY_RELATIVE_TOLERANCE."""
    if isinstance(stored, dict) and isinstance(replayed, dict):
        for key in sorted(set(stored) | set(replayed)):
            if key not in stored or key not in replayed:
                return "%s%s: only in the %s run" % (where, key, "stored" if key in stored
                                                     else "replayed")
            found = first_difference(stored[key], replayed[key], "%s%s." % (where, key))
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(replayed, list):
        if len(stored) != len(replayed):
            return "%s: %d entries → %d" % (where.rstrip("."), len(stored), len(replayed))
        for index, (a, b) in enumerate(zip(stored, replayed)):
            found = first_difference(a, b, "%s%d." % (where, index))
            if found:
                return found
        return None
    field = where.rstrip(".")
    if isinstance(stored, bool) or isinstance(replayed, bool) or \
            not isinstance(stored, (int, float)) or not isinstance(replayed, (int, float)):
        if isinstance(stored, str) and isinstance(replayed, str) and os.sep in stored:
            same = os.path.basename(stored) == os.path.basename(replayed)
        else:
            same = stored == replayed and type(stored) is type(replayed)  # True is not 1
        return None if same else "%s: %r → %r" % (field, stored, replayed)
    if abs(replayed - stored) <= REPLAY_RELATIVE_TOLERANCE * max(abs(stored), abs(replayed)):
        return None
    return "%s: %r → %r" % (field, stored, replayed)


def report_replay(compared, changed, what, trainloop, paper):
    """Prints a replay's outcome (`changed`: one line per run that differs) and exits 1 if any
    differs: the document of `paper` (scripts/reproduce.sh's name) then no longer shows what
    trainloop gives."""
    for line in changed:
        print("changed: %s" % line, file=sys.stderr)
    print("replayed %d %s with %s: %s" % (
        compared, what, trainloop, "%d differ; the document no longer shows what trainloop "
        "gives: rerun scripts/reproduce.sh %s and copy its results.json to tests/golden/%s"
        % (len(changed), paper, paper) if changed else "all as stored"), file=sys.stderr)
    if changed:
        sys.exit(1)


def load_module(name, path):
    """A Python file (a profile generator) imported as module `name`."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Search:
    """How a trainloop run maps each problem: a strategy, its budget and the objective.

    A paper's speed-up is a claim about cycles, so the runs whose cycles a report
    shows search with annealing to convergence for the fewest cycles; a search
    stopped far from its best makes two designs differ by the search's luck."""

    def __init__(self, strategy="anneal", budget=20000, objective="latency"):
        self.strategy, self.budget, self.objective = strategy, budget, objective

    def options(self):
        """`budget` None: until converged (trainloop's default, no --budget)."""
        budget = [] if self.budget is None else ["--budget", str(self.budget)]
        return ["--search", self.strategy] + budget + ["--objective", self.objective]

    def until_converged(self):
        """The same strategy and objective, searched until converged."""
        return Search(self.strategy, None, self.objective)

    def command_suffix(self):
        """The report's command-line options that differ from the defaults."""
        default = Search()
        given = [("--strategy", self.strategy, default.strategy),
                 ("--budget", self.budget, default.budget),
                 ("--objective", self.objective, default.objective)]
        return "".join(" %s %s" % (flag, value) for flag, value, d in given if value != d)

    def stored(self):
        """The search as a results file stores it: Search(*search.stored()) gives it back."""
        return [self.strategy, self.budget, self.objective]

    def __str__(self):
        return "%s search, %s, objective %s, seed 1" % (
            "annealing" if self.strategy == "anneal" else self.strategy,
            "until converged" if self.budget is None else
            "budget %d per distinct problem" % self.budget, self.objective)


# For runs whose MAC counts alone are reported (they count effectual MACs from the
# densities, whatever the mapping): enough samples to find a valid mapping for every
# problem of the shipped networks (20 leave some of GoogLeNet's and NIN's without one).
MACS_ONLY = Search("random", 200, "edp")


def add_search_options(parser):
    """--strategy, --budget and --objective of the runs whose cycles are reported."""
    default = Search()
    parser.add_argument("--strategy", default=default.strategy,
                        choices=["anneal", "random", "exhaustive"],
                        help="search of the runs whose time and energy are reported")
    parser.add_argument("--budget", type=int, default=default.budget,
                        help="evaluations per distinct problem")
    parser.add_argument("--objective", default=default.objective,
                        choices=["latency", "energy", "edp"],
                        help="what each mapping minimizes (the claims are speed-ups: cycles)")


def search_from(args):
    return Search(args.strategy, args.budget, args.objective)


def arch_with_dram_bandwidth(arch, words, work, shared=False):
    """The shipped spec arch_specs/`arch`.yaml with its DRAM limited to `words` words per
    cycle each way (`shared`: reads and writes together, on one bus), written under `work`
    as `arch`_dram`words`.yaml (`arch`_dram`words`shared.yaml); returns its path.
    For the reproductions' assumption rows where a paper gives no off-chip bandwidth."""
    with open(os.path.join(ROOT, "arch_specs", arch + ".yaml")) as f:
        spec = f.read()
    dram = spec.index("  - name: DRAM\n")
    word_bits = spec.index("    word_bits:", dram)
    end = spec.index("\n", word_bits) + 1
    limit = ("    shared_bandwidth: %d\n" % words if shared else
             "    read_bandwidth: %d\n    write_bandwidth: %d\n" % (words, words))
    spec = spec[:end] + limit + spec[end:]
    return write_spec_variant(arch, spec, "dram%d%s" % (words, "shared" if shared else ""), work)


def write_spec_variant(arch, spec, suffix, work):
    """Writes `spec`, a changed copy of arch_specs/`arch`.yaml, as `work`/`arch`_`suffix`.yaml
    under the architecture name `arch`_`suffix`, its component library found from there;
    returns its path."""
    spec = spec.replace("architecture: %s\n" % arch, "architecture: %s_%s\n" % (arch, suffix))
    spec = spec.replace("component_library: components/", "component_library: %s/"
                        % os.path.join(ROOT, "arch_specs", "components"))
    path = os.path.join(work, "%s_%s.yaml" % (arch, suffix))
    with open(path, "w") as f:
        f.write(spec)
    return path
