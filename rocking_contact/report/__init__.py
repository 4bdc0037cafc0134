"""The validation report: every case next to its references, as HTML and Markdown.

- :mod:`.content`: what the report says, from results directories;
- :mod:`.document`: the report as plain data (sections, tables, figures);
- :mod:`.html`, :mod:`.markdown`: the two renderings;
- :mod:`.parameters`, :mod:`.versions`: the parameters table and the software stack;
- :mod:`.cli`: ``rocking-contact report``.
"""
