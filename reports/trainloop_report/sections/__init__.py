"""The report's sections, in page order: the one place a section is added.

Each entry names a module of this package with `build(ctx)` returning the
section's HTML blocks (a list of strings; empty when the database holds
nothing for it, in which case the page says so). The page (report.py) and
the tests (reports/tests/) both read SECTIONS, so a new section is rendered,
listed in the table of contents and checked by adding one line here and one
module (docs/reports.md)."""

from dataclasses import dataclass

from . import (breakdown, dataflows, layers, pareto, proposals, provenance, sparse,
               speedup)


@dataclass(frozen=True)
class Section:
    id: str  # the HTML id and the figure-name prefix
    title: str
    build: object  # ctx -> list of HTML blocks
    empty_note: str  # shown when build returns nothing


SECTIONS = (
    Section("proposals", "Proposals side by side", proposals.build,
            "No architecture with finished points."),
    Section("speedup", "Speed-up and energy against the baseline", speedup.build,
            "No point maps a whole training step (fw, bw and wu)."),
    Section("breakdown", "Energy breakdown by phase and component class", breakdown.build,
            "No point maps a whole training step."),
    Section("dataflows", "Dataflows and array scaling", dataflows.build,
            "No point maps a whole training step."),
    Section("pareto", "Pareto fronts: energy, latency and area", pareto.build,
            "No point maps a whole training step."),
    Section("layers", "Layer by layer", layers.build,
            "No point maps a whole training step."),
    Section("sparse", "Sparse proposals: skipped work and load imbalance", sparse.build,
            "No proposal has sparse features (formats, skipping, gating or balancing)."),
    Section("provenance", "Provenance", provenance.build, ""),
)
