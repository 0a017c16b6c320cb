"""The page: every section of the registry (sections/__init__.py) in order,
with a table of contents, in one self-contained HTML file — styles inline,
charts as inline SVG, no script, nothing fetched from anywhere."""

import datetime
import os

from . import database
from .charts import Figures
from .context import Context
from .files import write_replacing
from .markup import esc, note
from .model import Model
from .sections import SECTIONS
from .selection import Selection

STYLE = """
body { font-family: sans-serif; margin: 0 auto; max-width: 1200px; padding: 0 1.5em 3em;
       color: #222; line-height: 1.4; }
header { border-bottom: 2px solid #4c72b0; margin-bottom: 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
nav ol { columns: 2; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.85em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.5em; vertical-align: top; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f2f4f8; }
caption { caption-side: bottom; font-size: 0.9em; color: #555; text-align: left; }
figure { margin: 1em 0; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.9em; color: #444; max-width: 60em; }
.note { color: #8a5a00; }
.subtitle { color: #555; }
pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.facts dt { font-weight: bold; }
dl.facts dd { margin: 0; }
"""


def write_report(db_path, out, baseline=None, networks=None, figures_dir=None, trainloop=None,
                 tool_version="", command="", histogram_layers=()):
    """Writes the report; returns (the sections written, the figure names)."""
    db = database.load(db_path)
    sel = Selection(db, networks=networks, baseline=baseline)
    figures = Figures(figures_dir)
    ctx = Context(db=db, sel=sel, figures=figures,
                  model=Model(trainloop, db_path) if trainloop else None,
                  generated=datetime.datetime.now(datetime.timezone.utc)
                  .strftime("%Y-%m-%d %H:%M:%S UTC"),
                  tool_version=tool_version, command=command,
                  histogram_layers=tuple(histogram_layers or ()))
    parts = []
    for section in SECTIONS:
        blocks = section.build(ctx) or [note(section.empty_note)]
        parts.append(f'<section id="{esc(section.id)}" data-section="{esc(section.id)}">'
                     f"<h2>{esc(section.title)}</h2>\n" + "\n".join(blocks) + "</section>")
    toc = "".join(f'<li><a href="#{esc(s.id)}">{esc(s.title)}</a></li>' for s in SECTIONS)
    studies = ", ".join(sel.label(s) for s in sel.studies)
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{esc(tool_version or 'trainloop_report')}">
<title>trainloop report: {esc(os.path.basename(db_path))}</title>
<style>{STYLE}</style>
</head>
<body>
<header>
<h1>Accelerator proposals compared</h1>
<p class="subtitle">{len(sel.proposals)} proposals on {esc(studies)}, against
<b>{esc(sel.baseline)}</b>; from <code>{esc(os.path.abspath(db_path))}</code>,
written {esc(ctx.generated)}.</p>
</header>
<nav><ol>{toc}</ol></nav>
{"".join(parts)}
</body>
</html>
"""
    write_replacing(out, page)
    return [s.id for s in SECTIONS], figures.names
