"""trainloop_report: one self-contained HTML report comparing the accelerator
proposals of a trainloop results database (docs/reports.md)."""
