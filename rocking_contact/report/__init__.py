"""The validation report: every case next to its references, as HTML and Markdown.

- :mod:`.inputs`: the results directories read, and those skipped (unreadable);
- :mod:`.content`: what the report says about them, in the order it says it, from
  :mod:`.verdicts` (how each run came out, the summary table and headline),
  :mod:`.provenance` (where the report and each run came from) and :mod:`.case_tables`
  (the tables of a case's section);
- :mod:`.figures`: each case's plots (the run's own, else redrawn) and views;
- :mod:`.document`: the report as plain data (sections, tables, figures);
- :mod:`.html`, :mod:`.markdown`: the two renderings;
- :mod:`.parameters`: the parameters table (the software stack comes from
  :mod:`rocking_contact.provenance`);
- :mod:`.meta`: the line a report's page carries of what it was drawn from and wrote,
  read back so that a run replaces only its own reports;
- :mod:`.cli`: ``rocking-contact report``.
"""
