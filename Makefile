# Two commands do everything on a fresh machine with Python 3.11+ and make:
#   make run    set up .venv if needed, then start the bot (reads .env)
#   make test   set up .venv if needed, then ruff + mypy + the whole pytest suite
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LOCK := requirements.lock
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint typecheck bench clean test-lowest lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Running needs the runtime dependencies only, at the versions the lock pins (the container
# image installs the same file), then the project itself without resolving anything more.
$(RUN_STAMP): pyproject.toml $(LOCK) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip check || { echo 'requirements.lock is behind pyproject.toml: run make lock'; exit 1; }
	touch $@

# Testing adds the suite's runner, the linter and the type checker on top, so the suite runs
# against the pinned versions the image ships.
$(DEV_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

run: $(RUN_STAMP)
	$(BIN)/python -m bot

# lint-imports: the layers and the import rules in pyproject.toml ([tool.importlinter]).
lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

# The store's suites run on SQLite and on a PostgreSQL the tests start themselves
# (tests/support/postgres.py); under make test a missing PostgreSQL fails the run. Two workers
# (pytest-xdist): much of a Discord test is waiting on another process, so two run in the time
# of one on two cores; the slow tests are handed out first and an idle worker takes over the
# other's queue (work stealing), so no long test is left running alone at the end.
test: lint typecheck docs
	CRIBBAGE_TEST_POSTGRES=$${CRIBBAGE_TEST_POSTGRES:-require} $(BIN)/python -m pytest -q -n 2 --dist worksteal

# The documentation site (mkdocs.yml, docs/): --strict fails on a broken link or a page left out
# of the navigation; docs/hooks/reference.py writes the reference pages from the code.
.PHONY: docs docs-images
docs: $(DEV_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet --site-dir build/site

# The documentation's pictures, drawn by the bot's own renderer from seeded games.
docs-images: $(DEV_STAMP)
	$(BIN)/python scripts/docs_images.py

bench: $(DEV_STAMP)
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# The container image end to end, apart from `make test`: podman builds a Debian base with
# debootstrap (once; no registry needed), the bot's image from the Dockerfile and a PostgreSQL
# image, then the bot's container plays a game against the Discord emulator through a restart,
# and the build times and image size are printed (deploy/container/game_test.py). podman, runc
# and debootstrap are installed with apt-get when missing. CONTAINERS_CONF: podman's settings
# for these machines (deploy/container/containers.conf, docs/admin/deploy.md).
.PHONY: container-test
container-test: $(DEV_STAMP)
	deploy/container/install-tools.sh
	CONTAINERS_CONF=$(CURDIR)/deploy/container/containers.conf PYTHONPATH=$(CURDIR) \
		$(BIN)/python deploy/container/game_test.py

# The lower bounds in pyproject.toml are promises to whoever installs the bot beside other
# packages, so they are tested: a venv of its own gets the lowest version each runtime
# dependency allows (uv's lowest-direct; what those need comes at its newest, as pip would give
# it), and the quick loop runs there. pytest and its plugins are held at their lowest too: they
# run the suite, so their bounds are promises about it. Ruff, mypy and the stubs are left out:
# they check the code rather than run it, each release flags different things, and `make test`
# runs them at the versions the team works with.
LOWEST := .venv-lowest
test-lowest:
	rm -rf $(LOWEST)
	$(PYTHON) -m venv $(LOWEST)
	echo '*' > $(LOWEST)/.gitignore
	$(LOWEST)/bin/python -m pip install --quiet uv
	$(LOWEST)/bin/uv pip install --quiet --python $(LOWEST)/bin/python \
		--resolution lowest-direct -e '.[test]'
	$(LOWEST)/bin/python -m pytest -m "not slow" -q -n 2

# Pins every runtime dependency, and what they need, to one version with the hashes of its
# files: one file for Python 3.11 and later on every platform (--universal: Linux x86_64 and
# aarch64 among them), which the container image and `make run` install exactly. Rerun after
# changing a dependency in pyproject.toml, or to take newer releases (then `make test` and
# `make test-lowest` before committing it).
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --universal --python-version 3.11 \
		--generate-hashes --no-header --quiet -o $(LOCK)

clean:
	rm -rf $(VENV) $(LOWEST) build *.egg-info .pytest_cache .ruff_cache .mypy_cache
