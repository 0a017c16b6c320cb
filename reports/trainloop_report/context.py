"""What every section builds from: the database, the selection, the figure
collector, the model (to compute what the database does not hold), and the
run's provenance."""

from dataclasses import dataclass

from .charts import palette


@dataclass
class Context:
    db: object  # data.Database
    sel: object  # selection.Selection
    figures: object  # charts.Figures
    model: object = None  # model.Model, None when no trainloop binary was given
    generated: str = ""  # date and time the report was written (UTC, ISO 8601)
    tool_version: str = ""  # the trainloop that wrote the report
    command: str = ""
    histogram_layers: tuple = ()  # --histogram-layer: LAYER or LAYER:PHASE

    def __post_init__(self):
        self.proposal_colors = palette(self.sel.proposals)
