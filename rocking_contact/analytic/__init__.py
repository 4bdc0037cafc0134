"""Analytic and semi-analytic reference solutions; case-file references come from here."""
