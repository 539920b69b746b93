# The two commands of the README: `make run` and `make test`. Both start from a fresh machine
# with only Python 3.11+ and set up everything else themselves.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint docs servers install demo bench messages lock clean

$(STAMP): requirements.lock requirements-dev.lock pyproject.toml
	$(PYTHON) -c 'import sys; sys.exit("Python 3.11 or newer is needed, not " + sys.version.split()[0]) if sys.version_info < (3, 11) else None'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.lock
	touch $(STAMP)

install: $(STAMP)

# A running site with the demo tournaments on SQLite, at http://127.0.0.1:8000/. At a venue,
# `make run HOST=0.0.0.0` serves the hall's network: SITE_URL (the address printed on every QR
# code) is then this machine's first network address unless given.
LAN_ADDRESS = $(firstword $(shell hostname -I 2>/dev/null))
SITE_URL ?= $(if $(filter 0.0.0.0,$(HOST)),$(if $(LAN_ADDRESS),http://$(LAN_ADDRESS):$(PORT)/),)
RUN_ENV = DEBUG=true SITE_URL="$(SITE_URL)"
run: install
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	$(RUN_ENV) $(BIN)/python manage.py demo --if-empty --url $(or $(SITE_URL),http://$(HOST):$(PORT)/)
	$(RUN_ENV) $(BIN)/python manage.py runserver $(HOST):$(PORT)

# The checks of .pre-commit-config.yaml too: style, the import contracts (the game core imports
# no Django; apps import only downwards: pyproject.toml's [tool.importlinter]), types (mypy with
# django-stubs over every app, the core strictly: [tool.mypy]), and no model change without its
# migration; and the manual builds with --strict (a link to a page or heading that does not exist
# fails), into a temporary directory.
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	DEBUG=true $(BIN)/mypy
	DEBUG=true $(BIN)/python manage.py makemigrations --check --dry-run
	@out=$$(mktemp -d) && trap 'rm -rf "$$out"' EXIT && $(MKDOCS) build --strict --site-dir "$$out"

# The manual (docs/, mkdocs.yml) as HTML in site/: open site/index.html. While writing,
# `.venv/bin/mkdocs serve -a 127.0.0.1:8001` shows each change at once.
MKDOCS = NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs
docs: install
	$(MKDOCS) build --strict --site-dir site

# Lint, migrations, then the suite twice: the whole suite on SQLite (the embedded default), and
# on a throwaway PostgreSQL cluster with a real Redis and Celery worker the tests whose outcome
# can depend on the database, by the rule of tests/plugins/backends.py (the tests marked
# `services`, a list of files with their reasons, counted queries). Each pass runs in one
# process per core (pytest-xdist, a whole test file per process: tests/plugins/parallel.py);
# TEST_WORKERS=0 runs it in this one. The servers the tests start themselves are installed first
# if missing (`make servers`), and under `make test` a test that needs one fails instead of
# skipping (DOKO_REQUIRE_SERVERS). Python keeps its compiled modules (and pytest its rewritten
# test modules) even where PYTHONDONTWRITEBYTECODE is set: every worker of both passes, and every
# subprocess a test starts, would compile them all again.
PG_BIN := $(firstword $(wildcard /usr/lib/postgresql/*/bin))
TEST_WORKERS ?= auto
PYTEST = DOKO_REQUIRE_SERVERS=true PYTHONDONTWRITEBYTECODE= PATH="$(PG_BIN):$$PATH" \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile
test: lint servers
	$(PYTEST) -m "not services"
	$(PYTEST) --postgres

# What the tests start on loopback: redis-server, and Debian's Chromium for the browser tests
# (never one that Playwright downloads); haproxy checks the proxy's configuration. Installed with apt-get (as root, else with sudo) when
# missing; PostgreSQL's server binaries must be there already (initdb, pg_ctl, postgres).
CHROMIUM ?= $(or $(DOKO_CHROMIUM),/usr/bin/chromium)
servers:
	@need=""; \
	command -v redis-server >/dev/null 2>&1 || need="$$need redis-server"; \
	[ -x "$(CHROMIUM)" ] || need="$$need chromium"; \
	command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || need="$$need haproxy"; \
	if [ -n "$$need" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt="apt-get"; \
	  elif command -v sudo >/dev/null 2>&1; then apt="sudo apt-get"; \
	  else echo "The tests need:$$need. Install them with: apt-get install -y$$need" >&2; exit 1; fi; \
	  echo "Installing$$need for the tests"; \
	  DEBIAN_FRONTEND=noninteractive $$apt install -y --no-install-recommends $$need \
	    || { DEBIAN_FRONTEND=noninteractive $$apt update && \
	         DEBIAN_FRONTEND=noninteractive $$apt install -y --no-install-recommends $$need; } \
	    || { echo "Could not install$$need. Run: apt-get install -y$$need" >&2; exit 1; }; \
	fi
	@[ -n "$(PG_BIN)" ] || command -v initdb >/dev/null 2>&1 \
	  || { echo "PostgreSQL's server binaries are missing. Run: apt-get install -y postgresql" >&2; exit 1; }

# Benchmarks (not part of `make test`): figures as ratios against baselines measured in turn with
# them (the median of several pairs, "unsteady" past a spread of ±15 %), printed and written to
# bench/results/. `make bench SUITES=rules` runs one suite. The suites
# share one synthetic tournament (2,000 players × 10 rounds, every sheet confirmed), built once
# per run in a throwaway PostgreSQL cluster with a throwaway Redis as the cache, as in production;
# the run starts and stops both (PostgreSQL's server binaries must be installed). On a machine
# without PostgreSQL, `make bench DB=sqlite` runs as before: a SQLite file and in-memory caches.
# The standings suite loads gunicorn with wrk; wrk and redis-server are installed from Debian if
# missing. `make bench SUITES=day2` (the tournament day on two servers, never run by default)
# puts HAProxy in front of them, installed from Debian if missing.
DB ?= postgres
APT_INSTALL = if [ "$$(id -u)" = 0 ]; then apt-get install -y --no-install-recommends $(1); else sudo apt-get install -y --no-install-recommends $(1); fi
bench: install
	@command -v wrk >/dev/null 2>&1 || { $(call APT_INSTALL,wrk); }
	@[ "$(DB)" = sqlite ] || command -v redis-server >/dev/null 2>&1 || { $(call APT_INSTALL,redis-server); }
	@case " $(SUITES) " in *" day2 "*) command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] \
	  || { $(call APT_INSTALL,haproxy); };; esac
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
	rm -rf $(VENV) staticfiles site .pytest_cache .ruff_cache
