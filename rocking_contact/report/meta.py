"""What a report's page says of itself: the results directories it was drawn from and the
files it wrote, in a ``<meta>`` of its head (:func:`report_meta`, which
:func:`rocking_contact.report.cli.write_report` puts there), read back for a run into the
directory of the one run a report shows (:func:`own_reports`): that run takes the report's
files with its own (:mod:`rocking_contact.results_dir`), not a user's files beside them.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

#: the page of a report (``rocking-contact report``), whose head names what it was drawn
#: from and the files it wrote in a ``<meta name=REPORT_META content=...>`` (JSON)
REPORT_INDEX = "index.html"
REPORT_META = "rocking-contact-report"
_REPORT_HEAD = re.compile(r'<meta name="' + REPORT_META + r'" content="([^"]*)">')
#: how much of a page is read for its meta: it comes first in the head
_REPORT_HEAD_CHARS = 1 << 20


def report_meta(results: list[Path], files: list[str]) -> str:
    """The ``<meta>`` of a report drawn from the results directories ``results`` that wrote
    ``files`` (relative to the report directory, ``/``-separated)."""
    content = json.dumps({"results": [str(Path(r).resolve()) for r in results],
                          "files": files})
    return f'<meta name="{REPORT_META}" content="{html.escape(content)}">'


def own_reports(out_dir: Path) -> list[tuple[Path, list[str]]]:
    """The reports drawn inside ``out_dir`` of the run there alone (the Ctrl-C hint's
    ``report DIR --out DIR/report``), with the files each wrote: a subdirectory whose
    :data:`REPORT_INDEX` carries the report's meta naming ``out_dir`` as its only results.
    A report of several runs, a page without the meta (a user's) is none."""
    reports = []
    subdirectories = sorted(p for p in out_dir.iterdir() if p.is_dir()) if out_dir.is_dir() \
        else []
    for sub in subdirectories:
        try:
            with open(sub / REPORT_INDEX, encoding="utf-8") as fh:
                m = _REPORT_HEAD.search(fh.read(_REPORT_HEAD_CHARS))
            meta = json.loads(html.unescape(m.group(1))) if m else None
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or meta.get("results") != [str(out_dir.resolve())]:
            continue
        files = meta.get("files")
        if isinstance(files, list) and all(isinstance(f, str) for f in files):
            reports.append((sub, files))
    return reports
