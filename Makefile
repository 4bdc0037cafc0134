# Two entry points, both self-bootstrapping: `make demo` and `make test`.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

# A Python 3.12 interpreter: on PATH, or one pyenv keeps without making it global.
PYTHON312 ?= $(shell for p in python3.12 $$HOME/.pyenv/versions/3.12*/bin/python3.12 \
	/usr/local/bin/python3.12 /usr/bin/python3.12; do \
	"$$p" -c 'import sys; assert sys.version_info[:2] == (3, 12)' >/dev/null 2>&1 \
	&& { echo "$$p"; break; }; done)

.PHONY: demo test test-slow lint bench clean

$(PY):
	@test -n "$(PYTHON312)" || { echo "error: python3.12 not found (install it or set PYTHON312=/path/to/python3.12)"; exit 2; }
	$(PYTHON312) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e ".[dev]"
	@touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/rocking-contact validate; status=$$?; \
	$(VENV)/bin/rocking-contact report --out report/ && exit $$status

# Two pytest-xdist workers, a test file each at a time (its module fixtures computed once);
# the tests marked mpi (mpiexec -n 2 or 3) run last, alone: a rank waiting for another polls,
# and beside a busy worker it takes the core the other rank needs (tests/mpi_alone.py).
# 2, not auto: CI has 2 cores, and a 3rd worker would recompute the session fixtures of
# every area for a core that is not there.
test: $(STAMP)
	$(PY) -m pytest -q -m "not slow" -n 2 --dist loadfile

test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

lint: $(STAMP)
	$(VENV)/bin/ruff check rocking_contact tests benchmarks
	$(VENV)/bin/mypy

bench: $(STAMP)
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) results report .pytest_cache
