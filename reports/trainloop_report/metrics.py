"""The metrics of a layer-phase's mapping as the engine defines them, once,
in engine/vocabulary/layer_phase_metrics.def: the report reads every metric
column of `results` by these names (database.py) and LayerResult has a field
per metric (data.py), so a metric added there reaches the report with no list
of the report's own to update."""

import re
from dataclasses import dataclass
from pathlib import Path

DEFINITIONS = (Path(__file__).resolve().parents[2] / "engine" / "vocabulary"
               / "layer_phase_metrics.def")


@dataclass(frozen=True)
class Metric:
    name: str
    sql_type: str  # INTEGER or REAL
    json_key: str
    header: str
    unit: str
    shown: str  # all, sparse or stored
    description: str

    @property
    def python_type(self):
        return int if self.sql_type == "INTEGER" else float


# One argument of a TRAINLOOP_METRIC(...) line: a C string literal or a word.
_ARGUMENT = re.compile(r'"((?:[^"\\]|\\.)*)"|([A-Za-z_:0-9]+)')


def read_metrics(text):
    """The metrics of a .def text, in table order."""
    code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    metrics = []
    for call in re.finditer(r"TRAINLOOP_METRIC\((.*?)\)\s*(?=TRAINLOOP_METRIC|\Z)", code, re.S):
        args = [quoted if word == "" else word
                for quoted, word in _ARGUMENT.findall(call.group(1))]
        name, _cpp_type, sql_type, json_key, header, unit, shown, description = args
        metrics.append(Metric(name, sql_type, json_key, header, unit, shown, description))
    return metrics


LAYER_PHASE_METRICS = read_metrics(DEFINITIONS.read_text(encoding="utf-8"))
