"""The values a report is made of: plain, immutable records read from the
results database (database.py) and the selections every section shares
(selection.py). No SQL and no drawing here."""

from dataclasses import dataclass, field, make_dataclass

from .metrics import LAYER_PHASE_METRICS

PHASES = ("fw", "bw", "wu")


@dataclass(frozen=True, eq=False)  # one object per database row: identity is equality
class Architecture:
    id: int
    name: str
    area_um2: float
    pe_rows: int
    pe_columns: int
    clock_ghz: float
    summary: dict  # architectures.summary (eval/arch_summary_json.hpp), None if not stored
    yaml: str

    @property
    def dense(self):
        """True without sparse features, False with; None when the summary
        was not stored (rows written before schema 2)."""
        return None if self.summary is None else self.summary["dense"]

    @property
    def array(self):
        return f"{self.pe_rows}×{self.pe_columns}"


@dataclass(frozen=True)
class PhaseTotal:
    layer_phases: int
    cycles: int
    energy_pj: float
    macs: int
    effectual_macs: float
    performed_macs: float  # None for rows written before schema 2
    imbalance_cycles: float


@dataclass(frozen=True)
class Sweep:
    id: int
    name: str
    yaml: str
    tool_version: str
    points: int


@dataclass(frozen=True, eq=False)
class Point:
    id: int
    sweep_id: int
    idx: int
    arch: Architecture
    network: str
    batch: int
    sparsity: str
    dataflow: str
    objective: str
    search: str
    budget: int
    seed: int
    iteration: int  # None: the profile's final densities
    phases: str
    status: str
    failure: str
    evaluations: int
    pareto_step: bool
    totals: dict = field(default_factory=dict)  # phase -> PhaseTotal

    @property
    def done(self):
        return self.status == "done"

    def seconds(self, phase="step"):
        """Wall time of a phase: cycles at the architecture's clock."""
        return self.totals[phase].cycles / (self.arch.clock_ghz * 1e9)

    def cycle_edp(self, phase="step"):
        """energy × cycles: what the canned queries rank by (within one
        architecture the same order as energy × time)."""
        t = self.totals[phase]
        return t.energy_pj * t.cycles

    @property
    def proposal(self):
        return Proposal(self.arch.name, self.sparsity)


@dataclass(frozen=True, order=True)
class Proposal:
    """An accelerator proposal: an architecture trained with a sparsity
    profile (the dense baseline trains dense, a sparse design sparse)."""
    arch: str
    sparsity: str

    @property
    def label(self):
        return f"{self.arch} ({self.sparsity})"


# The best mapping of one layer-phase: where it is, and a field per metric of
# engine/vocabulary/layer_phase_metrics.def (cycles, energy_pj, utilization,
# effectual_macs, ...; metrics.py), so the report has no list of its own.
LayerResult = make_dataclass("LayerResult", [
    ("layer", str),
    ("layer_index", int),
    ("phase", str),
    ("macs", int),
    *[(m.name, m.python_type) for m in LAYER_PHASE_METRICS],
    ("energy_by_class", dict),  # None for rows written before schema 2
    ("mapping", str),
], frozen=True)


@dataclass
class Database:
    path: str
    meta: dict
    architectures: dict  # id -> Architecture
    sweeps: dict  # id -> Sweep
    points: list  # every recorded point, done or failed
    reader: object  # point ids -> {point id: [LayerResult]}
    _layers: dict = field(default_factory=dict)

    def done_points(self):
        return [p for p in self.points if p.done]

    def failed_points(self):
        return [p for p in self.points if not p.done]

    def layers(self, point):
        """The point's best mappings, layer by layer (read on first use)."""
        if point.id not in self._layers:
            self._layers.update(self.reader([point.id]))
        return self._layers[point.id]

    def preload_layers(self, points):
        missing = [p.id for p in points if p.id not in self._layers]
        self._layers.update(self.reader(missing))
