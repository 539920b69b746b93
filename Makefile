# The two commands of the README: `make run` and `make test`. Both start from a fresh machine
# with only Python 3.11+ and set up everything else themselves.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint install demo bench messages lock clean

$(STAMP): requirements.lock requirements-dev.lock pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed, not " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.lock
	touch $(STAMP)

install: $(STAMP)

# A running site with the demo tournaments on SQLite, at http://127.0.0.1:8000/
run: install
	DEBUG=true $(BIN)/python manage.py migrate --noinput
	DEBUG=true $(BIN)/python manage.py demo --if-empty --url http://$(HOST):$(PORT)/
	DEBUG=true $(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	DEBUG=true $(BIN)/python manage.py makemigrations --check --dry-run

# Lint, migrations, then the suite twice: on SQLite (the embedded default), and on a throwaway
# PostgreSQL cluster with a real Redis and Celery worker for the tests marked `services`.
test: lint
	$(BIN)/python -m pytest -m "not services"
	$(BIN)/python -m pytest --postgres

# Benchmarks (not part of `make test`): figures as ratios against baselines measured in the same
# run, printed and written to bench/results/. `make bench SUITES=rules` runs one suite. The suites
# share one synthetic tournament (2,000 players × 10 rounds, every sheet confirmed), built once
# per run in a throwaway PostgreSQL cluster with a throwaway Redis as the cache, as in production;
# the run starts and stops both (PostgreSQL's server binaries must be installed). On a machine
# without PostgreSQL, `make bench DB=sqlite` runs as before: a SQLite file and in-memory caches.
# The standings suite loads gunicorn with wrk; wrk and redis-server are installed from Debian if
# missing.
DB ?= postgres
APT_INSTALL = if [ "$$(id -u)" = 0 ]; then apt-get install -y --no-install-recommends $(1); else sudo apt-get install -y --no-install-recommends $(1); fi
bench: install
	@command -v wrk >/dev/null 2>&1 || { $(call APT_INSTALL,wrk); }
	@[ "$(DB)" = sqlite ] || command -v redis-server >/dev/null 2>&1 || { $(call APT_INSTALL,redis-server); }
	BENCH_DB=$(DB) $(BIN)/python -m bench $(SUITES)

# Start over: a fresh SQLite database under var/ with the demo tournaments and a new login.
demo: install
	rm -f var/db.sqlite3 var/db.sqlite3-wal var/db.sqlite3-shm
	DEBUG=true $(BIN)/python manage.py migrate --noinput
	DEBUG=true $(BIN)/python manage.py demo

# Extract the translatable strings and compile the catalogues (needs GNU gettext).
messages: install
	DEBUG=true $(BIN)/python manage.py makemessages --locale de --no-obsolete --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --ignore 'bench/*'
	DEBUG=true $(BIN)/python manage.py compilemessages --ignore '.venv/*'

# Pin the dependencies of pyproject.toml again (after changing them there): requirements.lock
# for running (the Docker image), requirements-dev.lock adds the tools for testing.
PIN := $(BIN)/pip-compile --quiet --strip-extras --no-emit-index-url --no-emit-find-links
lock: install
	$(PIN) --output-file requirements.lock pyproject.toml
	$(PIN) --extra dev --constraint requirements.lock --output-file requirements-dev.lock pyproject.toml

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
