"""A pytest plugin that starts the servers the tests need, on loopback, and stops them.

The suite runs twice (``make test``):

``pytest -m "not services"``
    On SQLite (an in-memory test database), without any server.
``pytest --postgres``
    On a throwaway PostgreSQL cluster that this plugin starts (``tryfirst`` ``pytest_configure``,
    before Django reads ``DATABASE_URL``) and stops at the end: the tests whose outcome can depend
    on the database (the rule: ``tests/plugins/backends.py``). The tests
    marked ``services`` also get a real Redis (``redis_server``) and a real Celery worker
    (``celery_worker``). The processes themselves: ``tools/servers.py``.

``make test`` runs both in parallel processes (pytest-xdist, ``-n``): each worker process starts
its own cluster, Redis and Celery worker (a test may stop or restart them); the controlling process
starts none.

Without the PostgreSQL binaries the ``--postgres`` pass is skipped, with the reason shown, except
when ``CI=true`` or under ``make test`` (``DOKO_REQUIRE_SERVERS=true``), where that is an error; the same goes for ``redis-server`` and the tests that
need it. ``DOKO_PG_BIN`` (a directory) and ``DOKO_REDIS_SERVER`` (a binary) choose the binaries;
pointing them somewhere empty simulates a machine without them.

Registered by the top-level ``conftest.py``, which sets the environment's defaults first.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tools import servers

PROJECT_ROOT = Path(__file__).resolve().parents[2]
# Under CI=true, and under `make test` (which sets DOKO_REQUIRE_SERVERS=true), a test that
# needs a server must run: a missing server is a failure, never a skip. A developer running
# plain `pytest` on a machine without one gets the skip, with the reason shown.
SERVERS_REQUIRED = any(
    os.environ.get(name, "").lower() == "true" for name in ("CI", "DOKO_REQUIRE_SERVERS")
)
REQUIRED_BECAUSE = "and servers are required here (CI=true, or `make test`)"

cluster_key = pytest.StashKey[servers.PostgresCluster]()
skip_all_key = pytest.StashKey[str]()
workers_bindir_key = pytest.StashKey[Path]()
restore_key = pytest.StashKey[dict]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--postgres",
        action="store_true",
        default=False,
        help=(
            "Run the suite on a throwaway PostgreSQL cluster started for this run, including the "
            "tests marked `services` (they also get a real Redis and Celery worker)."
        ),
    )


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("help") or config.getoption("version", 0):
        return
    if config.getoption("postgres"):
        if _is_xdist_controller(config):
            _check_postgres(config)
        else:
            _start_postgres(config)
    # Read the settings now: pytest-django's trylast pytest_configure sets Django up only if they
    # are loaded (it would itself load them earlier only for an exported DJANGO_SETTINGS_MODULE).
    from django.conf import settings

    settings.INSTALLED_APPS  # noqa: B018


def _is_xdist_controller(config: pytest.Config) -> bool:
    """pytest-xdist's controlling process: it runs no test, its workers do."""
    return not hasattr(config, "workerinput") and config.getoption("dist", "no") != "no"


def _find_postgres(config: pytest.Config) -> Path | None:
    """The PostgreSQL binaries' directory; if there is none, the pass is skipped (stash) or, where
    servers are required, ended."""
    bindir, missing = servers.find_pg_bindir()
    if bindir is None:
        reason = f"PostgreSQL binaries not found ({', '.join(missing)})"
        if SERVERS_REQUIRED:
            pytest.exit(
                f"{reason}, {REQUIRED_BECAUSE}: the PostgreSQL pass must run. Put initdb, pg_ctl "
                "and postgres on PATH (or in /usr/lib/postgresql/<version>/bin, or set "
                "DOKO_PG_BIN).",
                returncode=1,
            )
        config.stash[skip_all_key] = f"{reason}: the PostgreSQL pass is skipped"
    return bindir


def _check_postgres(config: pytest.Config) -> None:
    if bindir := _find_postgres(config):
        config.stash[workers_bindir_key] = bindir


def _start_postgres(config: pytest.Config) -> None:
    bindir = _find_postgres(config)
    if bindir is None:
        return

    config.stash[restore_key] = {}
    cluster = servers.PostgresCluster(bindir)
    config.stash[cluster_key] = cluster  # stopped in pytest_unconfigure, or at exit
    _stop_on_sigterm(config)
    try:
        cluster.start()
    except (servers.ServerError, OSError, subprocess.SubprocessError) as error:
        cluster.stop()
        pytest.exit(f"The PostgreSQL cluster could not be started: {error}", returncode=1)
    config.stash[restore_key]["DATABASE_URL"] = os.environ.get("DATABASE_URL")
    os.environ["DATABASE_URL"] = cluster.url
    _point_loaded_settings_at(cluster.url)


def _stop_on_sigterm(config: pytest.Config) -> None:
    """A SIGTERM (a CI timeout, `kill`) ends the run like Ctrl-C, so the servers are stopped."""
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return

    def interrupt(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")

    try:
        signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        return
    config.stash[restore_key]["SIGTERM"] = signal.SIG_DFL


def _point_loaded_settings_at(url: str) -> None:
    """If pytest-django read the settings already (DJANGO_SETTINGS_MODULE was exported, so it did
    so before this file was imported; so in every pytest-xdist worker), point them at the cluster,
    as config/settings.py would have for this ``DATABASE_URL``; no connection exists yet."""
    if "django.conf" not in sys.modules:
        return
    from django.conf import settings

    if not settings.configured:
        return
    import dj_database_url
    from django.db import connections

    for wrapper in connections.all(initialized_only=True):
        if wrapper.connection is not None:
            pytest.exit("--postgres: a database connection was opened before the cluster started.")
        del connections[wrapper.alias]  # made again from the new settings on first use
    database = settings.DATABASES["default"]
    database.clear()
    database.update(dj_database_url.parse(url, conn_max_age=0))
    # config/settings.py for PostgreSQL: connections kept between requests, checked first
    # (tests/test_concurrency.py restarts the server under a kept one).
    database["CONN_MAX_AGE"] = int(os.environ.get("CONN_MAX_AGE", "60"))
    database["CONN_HEALTH_CHECKS"] = True
    connections.__dict__.pop("settings", None)  # fill in the defaults again on first use
    connections._settings = None


@pytest.hookimpl(trylast=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """One line (also with -q) on the database this pass runs on."""
    config = session.config
    if not config.getoption("postgres"):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reason := config.stash.get(skip_all_key, None):
        line = reason
    elif cluster := config.stash.get(cluster_key, None):
        line = (
            f"PostgreSQL {cluster.version} (throwaway cluster from {cluster.bindir}) on "
            f"127.0.0.1:{cluster.port}"
        )
    elif bindir := config.stash.get(workers_bindir_key, None):
        line = f"PostgreSQL: a throwaway cluster from {bindir} for each worker"
    else:
        return
    if reporter is not None:
        reporter.write_line(line, bold=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if reason := config.stash.get(skip_all_key, None):
        skip = pytest.mark.skip(reason=reason)
        for item in items:
            item.add_marker(skip)
    elif not config.getoption("postgres"):
        skip = pytest.mark.skip(reason="needs --postgres (make test runs them)")
        for item in items:
            if item.get_closest_marker("services"):
                item.add_marker(skip)


def pytest_unconfigure(config: pytest.Config) -> None:
    if cluster := config.stash.get(cluster_key, None):
        cluster.stop()
    restore = config.stash.get(restore_key, {})
    if "SIGTERM" in restore:
        signal.signal(signal.SIGTERM, restore["SIGTERM"])
    if "DATABASE_URL" in restore:
        if restore["DATABASE_URL"] is None:
            os.environ.pop("DATABASE_URL", None)
        else:
            os.environ["DATABASE_URL"] = restore["DATABASE_URL"]


# Servers for the tests marked `services` ------------------------------------------------------


def _missing(reason: str) -> None:
    if SERVERS_REQUIRED:
        pytest.fail(f"{reason}, {REQUIRED_BECAUSE}: the tests that need it must run.")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def redis_server():
    """The URL of a real Redis server, on loopback, for this test session."""
    binary = servers.find_redis_server()
    if binary is None:
        _missing("redis-server not found (install it, e.g. apt-get install redis-server)")
    server = servers.RedisServer(binary)
    try:
        server.start()
    except (servers.ServerError, OSError) as error:
        server.stop()
        pytest.fail(f"Redis could not be started: {error}")
    yield server.url
    server.stop()


@pytest.fixture
def redis_cache(redis_server, settings):
    """The shared cache a deployment has: Redis, through the site's backend
    (config/redis_cache.py), empty before and after the test, and nothing in this process's
    memory in front of it (``tournaments.caching``)."""
    from django.core.cache import caches

    from tournaments import caching

    settings.CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": redis_server,
            "KEY_PREFIX": "tests",
        }
    }
    cache = caches["default"]
    cache.clear()
    caching.memory_clear()
    yield cache
    cache.clear()
    caching.memory_clear()


def _database_url(settings_dict: dict) -> str:
    """A DATABASE_URL (dj-database-url) for a Django PostgreSQL connection's settings."""
    from urllib.parse import quote

    user = quote(settings_dict.get("USER") or "", safe="")
    password = quote(settings_dict.get("PASSWORD") or "", safe="")
    auth = f"{user}{':' + password if password else ''}@" if user else ""
    host = settings_dict.get("HOST") or "localhost"
    port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(settings_dict['NAME'], safe='')}"


@pytest.fixture(scope="session")
def _celery_worker_process(redis_server, django_db_setup, tmp_path_factory):
    """A real Celery worker of this project on the test database, for the session.

    It depends on ``django_db_setup``, so it stops before the test database is dropped.
    """
    from django.conf import settings
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.fail(
            "The Celery worker needs a database that another process can open: run with --postgres."
        )
    directory = tmp_path_factory.mktemp("celery-worker")
    media_root = directory / "media"
    media_root.mkdir()
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DATABASE_URL=_database_url(connection.settings_dict),  # the *test* database
        REDIS_URL=redis_server,
        SECRET_KEY=settings.SECRET_KEY,
        MEDIA_ROOT=str(media_root),
        CONN_MAX_AGE="0",
        PYTHONUNBUFFERED="1",
    )
    worker = servers.CeleryWorker(
        python=sys.executable,
        cwd=PROJECT_ROOT,
        env=env,
        logfile=directory / "worker.log",
        media_root=media_root,
    )
    try:
        worker.start()
    except (servers.ServerError, OSError) as error:
        worker.stop()
        pytest.fail(f"The Celery worker could not be started: {error}")
    yield worker
    worker.stop()


def _queued(url: str) -> int:
    """How many messages wait in Redis at ``url`` for the worker (Celery's default queue)."""
    import redis

    try:
        with redis.Redis.from_url(url) as client:
            return int(client.llen("celery"))
    except redis.RedisError:
        return 0  # a test that stopped the broker (tests/test_faults.py) leaves nothing to wait for


def _reset_celery_connections(app) -> None:
    from kombu import pools

    if app._pool is not None:
        app._pool.force_close_all()
    app._pool = None
    if "amqp" in app.__dict__:
        app.amqp._producer_pool = None
    # kombu keeps producer pools per broker address; one closed above would be handed out again
    pools.reset()


@pytest.fixture
def celery_worker(_celery_worker_process, redis_server, settings, transactional_db):
    """A real Celery worker, and this process's Celery app sending tasks to it through Redis.

    The worker only sees committed data, so this makes the test transactional (the test should
    say so too: ``@pytest.mark.django_db(transaction=True)``). Files the worker writes are under
    ``settings.MEDIA_ROOT`` here as well. The worker's log is printed (shown on failure).
    """
    from config.celery import app

    worker = _celery_worker_process
    settings.MEDIA_ROOT = worker.media_root
    saved = {"broker_url": app.conf.broker_url, "task_always_eager": app.conf.task_always_eager}
    app.conf.update(broker_url=redis_server, task_always_eager=False)
    _reset_celery_connections(app)
    log_start = len(worker.log())
    try:
        yield worker
    finally:
        # The test's database is emptied next: wait for what the test queued to be done.
        if not worker.idle(since=log_start, queued=lambda: _queued(redis_server)):
            print("The Celery worker was still busy after 30 s")
        app.conf.update(saved)
        _reset_celery_connections(app)
        print(f"--- Celery worker log ({worker.logfile}) ---\n{worker.log()[log_start:]}")
