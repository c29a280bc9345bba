"""report: one self-contained ``report.html`` per run, so a person can see whether a run worked.

A run leaves its evidence in several files (the dataset with provenance columns, ``result.json``,
``validation.json``, ``ledger.json``, ``messages.jsonl``, the program). The report reads them and draws
one static page — no network, no external assets: a summary line, the first rows with each cell linking
to the page it came from, a profile of every column (type, fill, distinct values, flags for empty or
suspicious ones), and how the run was made (program, blueprint, checks, the agents' trail, model use per
stage as an inline SVG bar chart)::

    path = write_report(run_dir)                    # a collect run directory -> run_dir/report.html
    path = write_report(Path("jobs.run.json"))      # a lists run record -> jobs.report.html

It reads plain files only, so any capability (or ``scrapesmith report``) can call it.
"""

from scrapesmith.report.load import ReportError, load_run
from scrapesmith.report.render import render_report
from scrapesmith.report.service import report_anything, report_path, runs_in, write_index, write_report
from scrapesmith.report.views import ColumnProfile, Report, StageBar

__all__ = ["ColumnProfile", "Report", "ReportError", "StageBar", "load_run", "render_report", "report_anything",
           "report_path", "runs_in", "write_index", "write_report"]
