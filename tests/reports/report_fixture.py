"""Shared by the report tests: the fixture database (written by the ctest
fixture `reports.fixture_db` from report_sweep.yaml), the trainloop binary,
and a parser that turns a report's HTML into its sections, tables (by
data-table, data-key, data-col, data-value) and figures."""

import json
import os
import subprocess
import sys
from html.parser import HTMLParser

SOURCE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE_DIR, "reports"))

DB = os.environ.get("REPORT_DB", "")
TRAINLOOP = os.environ.get("TRAINLOOP_BINARY", "")
WORK_DIR = os.environ.get("REPORT_WORK_DIR", "/tmp")


def trainloop(*args, check=True):
    run = subprocess.run([TRAINLOOP, *args], capture_output=True, text=True, timeout=600)
    if check and run.returncode != 0:
        raise AssertionError(f"trainloop {' '.join(args)} exited {run.returncode}:\n"
                             f"{run.stdout}\n{run.stderr}")
    return run


def query(*args):
    return json.loads(trainloop("query", "--db", DB, *args, "--format", "json").stdout)


def sql(statement):
    return query("--sql", statement)


class Page(HTMLParser):
    """sections: [id]; tables: {name: {key: {col: (text, value or None)}}};
    figures: [name]; texts: the page's text; attributes: every (tag, attr,
    value)."""

    def __init__(self, html):
        super().__init__(convert_charrefs=True)
        self.sections, self.figures, self.attributes, self.texts = [], [], [], []
        self.tables = {}
        self._table = self._key = self._cell = None
        self._cell_text = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name, value in attrs:
            self.attributes.append((tag, name, value or ""))
        if tag == "section":
            self.sections.append(a.get("data-section"))
        elif tag == "figure":
            self.figures.append(a.get("data-figure"))
        elif tag == "table":
            self._table = self.tables.setdefault(a["data-table"], {})
        elif tag == "tr" and self._table is not None:
            self._key = a.get("data-key")
        elif tag == "td" and self._key is not None:
            value = a.get("data-value")
            self._cell = (a["data-col"], None if value is None else float(value))
            self._cell_text = []

    def handle_data(self, data):
        self.texts.append(data)
        if self._cell is not None:
            self._cell_text.append(data)

    def handle_endtag(self, tag):
        if tag == "td" and self._cell is not None:
            col, value = self._cell
            self._table.setdefault(self._key, {})[col] = ("".join(self._cell_text), value)
            self._cell = None
        elif tag == "table":
            self._table = None
            self._key = None


def write_report(name, *extra):
    out = os.path.join(WORK_DIR, name + ".html")
    figures = os.path.join(WORK_DIR, name + "_figures")
    trainloop("report", "--db", DB, "--out", out, "--figures", figures, *extra)
    with open(out, encoding="utf-8") as f:
        html = f.read()
    return out, figures, html
