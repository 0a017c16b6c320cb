"""Where the numbers come from: the trainloop that wrote the report and the
ones that wrote the database, the database file, each sweep (its file as
stored, its search settings: strategy, budget, seed, objectives, density
iteration), the date, and every point that failed, with its reason."""

import os
import time

from ..markup import Cell, details, esc, heading, para, pre, table


def _settings(points):
    def distinct(get):
        return ", ".join(sorted({str(get(p)) for p in points})) or "—"
    return [distinct(lambda p: p.search), distinct(lambda p: p.budget),
            distinct(lambda p: p.seed), distinct(lambda p: p.objective),
            distinct(lambda p: "final" if p.iteration is None else p.iteration)]


def build(ctx):
    db = ctx.db
    stat = os.stat(db.path)
    modified = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(stat.st_mtime))
    rows = [("report written", ctx.generated or "—"),
            ("by", ctx.tool_version or "trainloop_report (run directly)"),
            ("command", ctx.command or "—"),
            ("database", os.path.abspath(db.path)),
            ("database size", f"{stat.st_size:,} bytes"),
            ("database last modified", modified),
            ("last written by", f"trainloop {db.meta.get('tool_version', 'unknown')}"),
            ("baseline", ctx.sel.baseline),
            ("points", f"{len(db.points):,} recorded, {len(db.done_points()):,} done, "
                       f"{len(db.failed_points()):,} failed")]
    blocks = ['<dl class="facts">' + "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>"
                                             for k, v in rows) + "</dl>"]
    sweep_rows, keys = [], []
    for sweep in db.sweeps.values():
        points = [p for p in db.points if p.sweep_id == sweep.id]
        sweep_rows.append([sweep.name, Cell(str(sweep.id), sweep.id),
                           f"trainloop {sweep.tool_version}",
                           Cell(f"{len(points):,} of {sweep.points:,}", len(points))] +
                          _settings(points))
        keys.append(str(sweep.id))
    blocks.append(table("sweeps", [("name", "sweep"), ("id", "id"), ("tool", "written by"),
                                   ("points", "points recorded"), ("search", "search"),
                                   ("budget", "budget"), ("seed", "seed"),
                                   ("objective", "objectives"),
                                   ("iteration", "density iteration")], sweep_rows, keys=keys))
    for sweep in db.sweeps.values():
        blocks.append(details(f"sweep file: {sweep.name}", pre(sweep.yaml)))
    blocks.append(heading("Failed points"))
    if not ctx.sel.failed:
        blocks.append(para("No point failed."))
    else:
        failed_rows = [[db.sweeps[p.sweep_id].name, Cell(str(p.idx), p.idx), p.arch.name,
                        p.network, Cell(str(p.batch), p.batch), p.sparsity, p.dataflow,
                        p.objective, p.failure or "—"] for p in ctx.sel.failed]
        blocks.append(table("failed", [("sweep", "sweep"), ("idx", "point"),
                                       ("arch", "architecture"), ("network", "network"),
                                       ("batch", "batch"), ("sparsity", "sparsity"),
                                       ("dataflow", "dataflow"), ("objective", "objective"),
                                       ("failure", "reason")], failed_rows,
                            keys=[f"{p.sweep_id}|{p.idx}" for p in ctx.sel.failed]))
    return blocks
