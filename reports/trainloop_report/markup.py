"""HTML building blocks: escaped text, tables whose cells carry their exact
value (data-value) next to the rounded text a reader sees, and figures. The
tests read the data-* attributes; people read the text."""

import html
import math


def esc(text):
    return html.escape(str(text), quote=True)


class Cell:
    """A table cell: what is shown, and the exact number behind it."""

    def __init__(self, text, value=None):
        self.text = text
        self.value = value


def num(value, digits=3):
    """A number cell, shown with `digits` significant digits."""
    if value is None:
        return Cell("—")
    return Cell(fmt(value, digits), value)


def fmt(value, digits=3):
    if value is None:
        return "—"
    if isinstance(value, int):
        return f"{value:,}"
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e6 or magnitude < 1e-3:
        return f"{value:.{digits - 1}e}"
    return f"{value:,.{max(digits - 1 - math.floor(math.log10(magnitude)), 0)}f}"


def table(name, columns, rows, keys=None, caption=None):
    """A <table data-table=NAME>; `columns` are (id, header) pairs, each row a
    list of Cell or plain text, `keys` an optional data-key per row."""
    out = [f'<table data-table="{esc(name)}">']
    if caption:
        out.append(f"<caption>{esc(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f'<th data-col="{esc(c)}">{esc(h)}</th>'
                                         for c, h in columns) + "</tr></thead><tbody>")
    for i, row in enumerate(rows):
        key = f' data-key="{esc(keys[i])}"' if keys else ""
        cells = []
        for (col, _), cell in zip(columns, row):
            if not isinstance(cell, Cell):
                cell = Cell(cell)
            value = "" if cell.value is None else f' data-value="{esc(repr(cell.value))}"'
            numeric = ' class="n"' if cell.value is not None else ""
            cells.append(f'<td data-col="{esc(col)}"{value}{numeric}>{esc(cell.text)}</td>')
        out.append(f"<tr{key}>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "\n".join(out)


def figure(svg, caption, name):
    return (f'<figure data-figure="{esc(name)}">{svg}'
            f"<figcaption>{esc(caption)}</figcaption></figure>")


def para(text):
    return f"<p>{esc(text)}</p>"


def note(text):
    return f'<p class="note">{esc(text)}</p>'


def heading(text, level=3):
    return f"<h{level}>{esc(text)}</h{level}>"


def details(summary, body_html):
    return f"<details><summary>{esc(summary)}</summary>{body_html}</details>"


def pre(text):
    return f"<pre>{esc(text)}</pre>"
