"""Test-suite root. Its folder, tests/, is on the import path (pytest puts a conftest's
folder there): helpers shared by every area live here (acceptance.py)."""
