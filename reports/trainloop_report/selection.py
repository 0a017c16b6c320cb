"""Which points a report shows, chosen the way the canned queries choose
them (engine/store canned queries, docs/results_db.md), so a report's numbers
are the queries' numbers:

- a group's best point is its lowest energy × cycles one, ties broken by
  dataflow, then objective, then cycles (alphabetical texts), as
  `query compare-archs` and `query compare-dataflows` do;
- a proposal is an (architecture, sparsity profile) pair; its best point per
  network and batch is what compare-archs lists for it;
- the baseline is the baseline architecture's best point among its profiles;
- speed-up is the baseline's wall time over the proposal's (cycles at each
  architecture's clock), energy ratio the proposal's energy over the
  baseline's."""

import json
from dataclasses import dataclass

from .errors import ReportError


def _rank(point, phase):
    t = point.totals[phase]
    return (point.cycle_edp(phase), point.dataflow, point.objective, t.cycles)


def best_by(points, key, phase="step"):
    """The best point of each group of `key` among the points that have the
    phase's totals: {key: point}, keys in sorted order."""
    best = {}
    for p in points:
        if phase not in p.totals:
            continue
        k = key(p)
        if k not in best or _rank(p, phase) < _rank(best[k], phase):
            best[k] = p
    return dict(sorted(best.items()))


@dataclass(frozen=True)
class Study:
    """One network at one batch size: the unit every comparison is made in."""
    network: str
    batch: int

    def label(self, batches):
        return self.network if len(batches) <= 1 else f"{self.network} (batch {self.batch})"


@dataclass(frozen=True)
class Comparison:
    study: Study
    proposal: object
    point: object
    baseline: object  # the baseline's point, None when the baseline has none here
    phase: str

    @property
    def seconds(self):
        return self.point.seconds(self.phase)

    @property
    def energy_pj(self):
        return self.point.totals[self.phase].energy_pj

    @property
    def speedup(self):
        if self.baseline is None or self.seconds <= 0:
            return None
        return self.baseline.seconds(self.phase) / self.seconds

    @property
    def energy_ratio(self):
        if self.baseline is None:
            return None
        base = self.baseline.totals[self.phase].energy_pj
        return self.energy_pj / base if base > 0 else None


class Selection:
    """The points of a database a report covers (--network), the baseline
    (--baseline) and the comparisons every section draws from."""

    def __init__(self, db, networks=None, baseline=None):
        self.db = db
        done = db.done_points()
        known_networks = sorted({p.network for p in db.points})
        for n in networks or []:
            if n not in known_networks:
                raise ReportError(db.path, f"no network named `{n}` in this database",
                                  "one of the network names the database holds",
                                  "it holds: " + ", ".join(known_networks) if known_networks
                                  else "the database holds none")
        wanted = set(networks) if networks else None
        self.points = [p for p in done if wanted is None or p.network in wanted]
        self.failed = [p for p in db.failed_points() if wanted is None or p.network in wanted]
        if not self.points:
            raise ReportError(db.path, "no finished point to report on" +
                              (" for the networks asked for" if wanted else ""),
                              "a database with at least one point of status `done`",
                              "`trainloop query --db FILE summary` shows what it holds")
        self.batches = sorted({p.batch for p in self.points})
        self.studies = sorted({Study(p.network, p.batch) for p in self.points},
                              key=lambda s: (s.network, s.batch))
        arch_names = sorted({p.arch.name for p in self.points})
        if baseline is not None and baseline not in arch_names:
            everywhere = sorted({a.name for a in db.architectures.values()})
            raise ReportError(db.path, f"no architecture named `{baseline}` with finished points",
                              "--baseline: one of the architecture names the database holds",
                              "it holds: " + ", ".join(everywhere))
        self.baseline = baseline or default_baseline(self.points)
        self.proposals = sorted({p.proposal for p in self.points},
                                key=lambda q: (q.arch != self.baseline, q.arch, q.sparsity))

    def label(self, study):
        return study.label(self.batches)

    def study_points(self, study):
        return [p for p in self.points if p.network == study.network and p.batch == study.batch]

    def comparisons(self, phase="step"):
        """Per study, compare-archs' rows: the baseline's first, then by
        energy × cycles."""
        out = {}
        for study in self.studies:
            best = best_by(self.study_points(study), lambda p: p.proposal, phase)
            if not best:
                continue
            base_rows = [p for q, p in best.items() if q.arch == self.baseline]
            base = min(base_rows, key=lambda p: (p.cycle_edp(phase), p.proposal)) \
                if base_rows else None
            rows = sorted(best.items(), key=lambda kv: (kv[0].arch != self.baseline,
                                                        kv[1].cycle_edp(phase), kv[0]))
            out[study] = [Comparison(study, q, p, base, phase) for q, p in rows]
        return out

    def best_per_dataflow(self, study, proposal, phase="step"):
        """compare-dataflows' choice: each dataflow's best point."""
        points = [p for p in self.study_points(study) if p.proposal == proposal]
        return best_by(points, lambda p: p.dataflow, phase)


def default_baseline(points):
    """The dense architecture (no sparse feature) with the fewest PEs, then
    the first by name; with no dense one, the first by name."""
    archs = {p.arch.name: p.arch for p in points}
    dense = [a for a in archs.values() if a.dense is True]
    pool = dense or list(archs.values())
    return min(pool, key=lambda a: (a.pe_rows * a.pe_columns, a.name)).name


def family_key(arch):
    """Architectures that differ only in the size of their PE array and of
    their storage levels (capacities, instance counts, areas) form a family:
    one design at several scales, as Procrustes Fig. 20 scales 16×16 to 32×32
    with a doubled global buffer. None when the stored summary is missing."""
    s = arch.summary
    if s is None:
        return None
    reduced = {
        "pe_array": {k: v for k, v in s["pe_array"].items() if k not in ("rows", "columns")},
        "levels": [{k: v for k, v in level.items() if k not in ("capacity_bytes", "instances", "area_um2")}
                   for level in s["levels"]],
        "networks": s["networks"],
        "sparse": s["sparse"],
        "clock_ghz": s["clock_ghz"],
    }
    return json.dumps(reduced, sort_keys=True)
