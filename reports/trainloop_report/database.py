"""Reading a trainloop results database (docs/results_db.md) for a report.

The database is the contract: this module reads its tables and views with
SQL on a read-only connection and turns rows into plain values (data.py). It
checks first that the file is a trainloop database of the schema it knows,
and raises ReportError (exit code 2) naming the file otherwise."""

import json
import os
import sqlite3

from .data import Architecture, Database, LayerResult, PhaseTotal, Point, Sweep
from .errors import ReportError
from .metrics import LAYER_PHASE_METRICS

SCHEMA_VERSION = 7  # the schema this report reads (engine/store/schema.cpp)

_WRITERS = "a database written by `trainloop sweep` or `trainloop map --db`"


def _connect(path):
    if not os.path.exists(path):
        raise ReportError(path, "no such file", _WRITERS, "check the --db path")
    if os.path.isdir(path):
        raise ReportError(path, "a directory, not a database file", _WRITERS)
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    except sqlite3.DatabaseError as e:
        raise ReportError(path, f"not an SQLite database ({e})", _WRITERS) from None
    return conn


def _check_schema(conn, path):
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    tables = conn.execute("SELECT count(*) FROM sqlite_schema WHERE type = 'table'").fetchone()[0]
    if version == 0 and tables == 0:
        raise ReportError(path, "an empty database: no results yet", _WRITERS)
    if version == 0:
        raise ReportError(path, "an SQLite database, but not a trainloop results database",
                          _WRITERS, "give another --db file")
    if version > SCHEMA_VERSION:
        raise ReportError(path, f"written by a newer trainloop (schema version {version}; "
                          f"this report reads {SCHEMA_VERSION})",
                          f"a results database of schema version {SCHEMA_VERSION}",
                          "use the trainloop that wrote it")
    if version < SCHEMA_VERSION:
        raise ReportError(path, f"schema version {version} is older than this report's "
                          f"{SCHEMA_VERSION}", "a database of the current schema",
                          "any write (e.g. `trainloop db merge NEW.db OLD.db`) migrates it")


def _json(text, path, where):
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        raise ReportError(path, f"malformed JSON in {where}", "the JSON trainloop writes",
                          "run `trainloop db check` on the file") from None


def load(path):
    """Everything a report reads, as a data.Database."""
    conn = _connect(path)
    try:
        _check_schema(conn, path)
        return _load(conn, path)
    except sqlite3.DatabaseError as e:
        raise ReportError(path, f"cannot read the database ({e})", _WRITERS,
                          "run `trainloop db check` on the file") from None
    finally:
        conn.close()


def _load(conn, path):
    meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    archs = {}
    for row in conn.execute("SELECT id, name, area_um2, pe_rows, pe_columns, clock_ghz, summary, "
                            "yaml FROM architectures ORDER BY name, id"):
        archs[row[0]] = Architecture(
            id=row[0], name=row[1], area_um2=row[2], pe_rows=row[3], pe_columns=row[4],
            clock_ghz=row[5], summary=_json(row[6], path, f"architectures.summary of {row[1]}"),
            yaml=row[7])
    networks = dict(conn.execute("SELECT id, name FROM networks").fetchall())
    profiles = dict(conn.execute("SELECT id, name FROM sparsity_profiles").fetchall())
    sweeps = {row[0]: Sweep(id=row[0], name=row[1], yaml=row[2], tool_version=row[3],
                            points=row[4])
              for row in conn.execute("SELECT id, name, yaml, tool_version, points FROM sweeps "
                                      "ORDER BY id")}
    totals = {}
    for row in conn.execute("SELECT point_id, phase, layer_phases, cycles, energy_pj, macs, "
                            "effectual_macs, performed_macs, imbalance_cycles FROM phase_totals"):
        totals.setdefault(row[0], {})[row[1]] = PhaseTotal(
            layer_phases=row[2], cycles=row[3], energy_pj=row[4], macs=row[5],
            effectual_macs=row[6], performed_macs=row[7], imbalance_cycles=row[8])
    points = []
    for row in conn.execute(
            "SELECT id, sweep_id, idx, arch_id, network_id, batch, sparsity_id, dataflow, "
            "objective, search, budget, seed, iteration, phases, status, failure, evaluations, "
            "pareto_step FROM points ORDER BY id"):
        points.append(Point(
            id=row[0], sweep_id=row[1], idx=row[2], arch=archs[row[3]], network=networks[row[4]],
            batch=row[5], sparsity=profiles[row[6]], dataflow=row[7], objective=row[8],
            search=row[9], budget=row[10], seed=row[11], iteration=row[12], phases=row[13],
            status=row[14], failure=row[15], evaluations=row[16], pareto_step=bool(row[17]),
            totals=totals.get(row[0], {})))
    return Database(path=path, meta=meta, architectures=archs, sweeps=sweeps, points=points,
                    reader=lambda ids: _layer_results(path, ids))


def _layer_results(path, point_ids):
    """The best mapping's results (choice 0) of the given points, per point
    in layer order then phase order."""
    if not point_ids:
        return {}
    conn = _connect(path)
    try:
        marks = ",".join("?" * len(point_ids))
        out = {pid: [] for pid in point_ids}
        metrics = [m.name for m in LAYER_PHASE_METRICS]
        for row in conn.execute(
                "SELECT point_id, layer, layer_index, phase, macs, energy_by_class, m.text, "
                + ", ".join(f"r.{name}" for name in metrics) + " "
                "FROM results r JOIN mappings m ON m.id = r.mapping_id "
                f"WHERE r.choice = 0 AND r.point_id IN ({marks}) "
                "ORDER BY point_id, layer_index, CASE phase WHEN 'fw' THEN 0 WHEN 'bw' THEN 1 "
                "ELSE 2 END", list(point_ids)):
            out[row[0]].append(LayerResult(
                layer=row[1], layer_index=row[2], phase=row[3], macs=row[4],
                energy_by_class=_json(row[5], path, "results.energy_by_class"),
                mapping=row[6], **dict(zip(metrics, row[7:]))))
        return out
    finally:
        conn.close()
