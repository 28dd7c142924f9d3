# Two commands do everything on a fresh machine with Python 3.11+ and make:
#   make run    set up .venv if needed, then start the bot (reads .env)
#   make test   set up .venv if needed, then ruff + mypy + the whole pytest suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .

typecheck: $(STAMP)
	$(BIN)/mypy

# The store's suites run on SQLite and on a PostgreSQL the tests start themselves
# (tests/support/postgres.py); under make test a missing PostgreSQL fails the run. Two workers
# (pytest-xdist): much of a Discord test is waiting on another process, so two run in the time
# of one on two cores; the slow tests are handed out first and an idle worker takes over the
# other's queue (work stealing), so no long test is left running alone at the end.
test: lint typecheck
	CRIBBAGE_TEST_POSTGRES=$${CRIBBAGE_TEST_POSTGRES:-require} $(BIN)/python -m pytest -q -n 2 --dist worksteal

bench: $(STAMP)
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The container image end to end, apart from `make test`: podman builds a Debian base with
# debootstrap (once; no registry needed), the bot's image from the Dockerfile and a PostgreSQL
# image, then the bot's container plays a game against the Discord emulator through a restart,
# and the build times and image size are printed (deploy/container/game_test.py). podman, runc
# and debootstrap are installed with apt-get when missing. CONTAINERS_CONF: podman's settings
# for these machines (deploy/container/containers.conf, docs/admin/deploy.md).
.PHONY: container-test
container-test: $(STAMP)
	deploy/container/install-tools.sh
	CONTAINERS_CONF=$(CURDIR)/deploy/container/containers.conf PYTHONPATH=$(CURDIR) \
		$(BIN)/python deploy/container/game_test.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache .mypy_cache
