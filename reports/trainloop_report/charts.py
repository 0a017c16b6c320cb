"""Charts: matplotlib figures turned into inline SVG for the HTML page, and
(--figures DIR) into PDF and SVG files for papers. Text stays text in the
SVG (svg.fonttype none, a generic font family), ids are deterministic, and
the SVG carries no metadata, document type or namespace URL: the page needs
nothing from outside.

For papers: every figure is drawn at the width it is printed at, one or two
columns (COLUMN_WIDTHS_IN), so its 9-pt text is 9 pt on the page; the PDF's
page is exactly that wide; fonts are embedded as TrueType (pdf.fonttype 42:
IEEE PDF eXpress rejects Type 3); each colour also has a hatch, so bars stay
apart in greyscale print; ratios are drawn on log axes (ratio_axis)."""

import io
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from .files import write_replacing  # noqa: E402

# IEEEtran's column and text widths (3.5 in, 7.16 in; ACM's acmart: 3.33 in, 7.0 in).
COLUMN_WIDTHS_IN = {1: 3.5, 2: 7.16}

STYLE = {
    "svg.fonttype": "none",
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "hatch.linewidth": 0.6,
    "svg.hashsalt": "trainloop-report",
    "font.family": "sans-serif",
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "figure.dpi": 100,
    "legend.fontsize": 8,
    "legend.frameon": False,
}
plt.rcParams.update(STYLE)

# One colour per phase and per energy class, the same in every chart.
PHASE_COLORS = {"fw": "#4c72b0", "bw": "#dd8452", "wu": "#55a868"}
CLASS_COLORS = {"MAC": "#4c72b0", "RF": "#dd8452", "buffer": "#55a868", "DRAM": "#c44e52",
                "network": "#8172b3", "sparse_overhead": "#937860"}
_CYCLE = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3",
          "#8c8c8c", "#ccb974", "#64b5cd"]


# A hatch per phase, per energy class and per palette entry, beside the colour.
PHASE_HATCHES = {"fw": "", "bw": "////", "wu": "...."}
CLASS_HATCHES = {"MAC": "", "RF": "////", "buffer": "....", "DRAM": "xxxx",
                 "network": "\\\\", "sparse_overhead": "oo"}
_HATCH_CYCLE = ["", "////", "....", "xxxx", "\\\\", "oo", "----", "++++", "||||", "**"]


def palette(keys):
    """A colour per key (proposals, dataflows), in the order given."""
    return {k: _CYCLE[i % len(_CYCLE)] for i, k in enumerate(keys)}


def hatches(keys):
    """A hatch per key, in the order given (the palette's order)."""
    return {k: _HATCH_CYCLE[i % len(_HATCH_CYCLE)] for i, k in enumerate(keys)}


def new_figure(height=3.2, ncols=1, nrows=1, columns=2, **kwargs):
    """A figure one or two paper columns wide (COLUMN_WIDTHS_IN), its panels
    sharing that width."""
    width = COLUMN_WIDTHS_IN[columns]
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, height), squeeze=False,
                             layout="constrained", **kwargs)
    return fig, axes


def ratio_axis(ax, axis="y"):
    """A log axis for ratios (0.07x and 41x both legible), ticked at 1, 2 and
    5 of each decade and written as plain numbers (0.5, 1, 2)."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter
    set_scale = ax.set_yscale if axis == "y" else ax.set_xscale
    set_scale("log")
    target = ax.yaxis if axis == "y" else ax.xaxis
    target.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    target.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    target.set_minor_formatter(NullFormatter())


_DROP = [
    re.compile(r"<\?xml[^>]*\?>\s*"),
    re.compile(r"<!DOCTYPE[^>]*>\s*"),
    re.compile(r"<metadata>.*?</metadata>\s*", re.S),
    re.compile(r'\s+xmlns(:\w+)?="[^"]*"'),
]


def svg_document(fig):
    """The figure as a standalone SVG file's text (no date in it)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    return buf.getvalue()


def inline_svg(document):
    """An SVG document as an <svg> element for an HTML5 page."""
    svg = document
    for pattern in _DROP:
        svg = pattern.sub("", svg)
    return svg.strip()


class Figures:
    """Collects a report's charts: each becomes inline SVG, and with a
    directory also NAME.pdf and NAME.svg there."""

    def __init__(self, out_dir=None):
        self.out_dir = out_dir
        self.names = []
        if out_dir:
            os.makedirs(out_dir, exist_ok=True)

    def render(self, fig, name):
        if name in self.names:
            raise ValueError(f"two figures named {name}")
        self.names.append(name)
        # One SVG rendering serves the page and the file: rendering is most of
        # a report's time (matplotlib's text layout, about 0.3 s per chart).
        document = svg_document(fig)
        if self.out_dir:
            base = os.path.join(self.out_dir, name)
            pdf = io.BytesIO()
            # Not cropped: the page is the width the figure was drawn for.
            fig.savefig(pdf, format="pdf", metadata={"CreationDate": None, "ModDate": None})
            write_replacing(base + ".pdf", pdf.getvalue())
            write_replacing(base + ".svg", document)
        plt.close(fig)
        return inline_svg(document)
