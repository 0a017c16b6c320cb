"""python3 -m trainloop_report --db RESULTS.db [--baseline ARCH] [--network NAME ...]
[--out report.html] [--figures DIR] [--histogram-layer LAYER[:PHASE] ...] [--trainloop BINARY]

`trainloop report` runs this with the same options (and --trainloop set to
itself, for the model's per-wave histograms). Exit codes: 0 written, 2 bad
input (the message names the file and what was expected), 1 internal error."""

import argparse
import sys

from .errors import ReportError
from .report import write_report


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="trainloop report",
        description="Write one self-contained HTML report comparing the accelerator proposals "
                    "of a results database (docs/reports.md).")
    parser.add_argument("--db", required=True, help="results database")
    parser.add_argument("--baseline", help="baseline architecture (default: the dense one with "
                        "the fewest PEs)")
    parser.add_argument("--network", action="append", help="only this network (repeatable)")
    parser.add_argument("--out", default="report.html", help="HTML file to write")
    parser.add_argument("--figures", help="also write every chart as DIR/NAME.pdf and .svg")
    parser.add_argument("--histogram-layer", action="append", default=[],
                        help="per-wave imbalance histogram of this layer (LAYER or LAYER:PHASE; "
                        "repeatable; default: each sparse proposal's two most imbalanced)")
    parser.add_argument("--trainloop", help="the trainloop binary, to compute what the "
                        "database does not hold (per-wave imbalance histograms)")
    parser.add_argument("--tool-version", default="", help=argparse.SUPPRESS)
    parser.add_argument("--command", default="", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        sections, figures = write_report(args.db, args.out, baseline=args.baseline,
                                         networks=args.network, figures_dir=args.figures,
                                         trainloop=args.trainloop,
                                         tool_version=args.tool_version, command=args.command,
                                         histogram_layers=args.histogram_layer)
    except ReportError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"error: {e.filename or ''}: {e.strerror}", file=sys.stderr)
        return 2
    print(f"report: {args.out} ({len(sections)} sections, {len(figures)} charts"
          + (f", PDF and SVG in {args.figures}" if args.figures else "") + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
