"""The database and cache of a benchmark run, started before Django reads its settings.

By default, as in production: a throwaway PostgreSQL cluster and a Redis server (the cache, which
the gunicorn workers of the standings load share), both from ``tools/servers.py``, on loopback in
temporary directories, stopped at the end of the run, also on an error or Ctrl-C. ``BENCH_DB=sqlite``
(``make bench DB=sqlite``) runs on a SQLite file in a temporary directory with each process's own
in-memory cache instead, for a machine without PostgreSQL.

Either way no Celery worker runs: tasks run in-process, at once (eager), as the settings do
without ``REDIS_URL``, so a rebuild that a write schedules is never left waiting in a queue.
"""

import contextlib
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

CHOICES = ("postgres", "sqlite")
ESCAPE_HATCH = "make bench DB=sqlite (or BENCH_DB=sqlite python -m bench)"


class BackendError(RuntimeError):
    """The run's database or cache cannot be started."""


def chosen() -> str:
    kind = (os.environ.get("BENCH_DB") or "postgres").strip().lower()
    if kind in {"postgresql", "pg"}:
        kind = "postgres"
    if kind not in CHOICES:
        raise BackendError(f"BENCH_DB must be one of {', '.join(CHOICES)}, not {kind!r}.")
    return kind


@contextlib.contextmanager
def _terminated_as_interrupt() -> Iterator[None]:
    """SIGTERM ends the run as Ctrl-C does, through every ``finally`` (servers stopped)."""

    def interrupt(_signum, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def started(kind: str) -> Iterator[str]:
    """Start the run's database (and cache), set ``DATABASE_URL`` and ``REDIS_URL`` (and
    ``VAR_DIR``) for this process and the servers it starts, and yield a description of them.
    Everything is stopped and deleted on the way out."""
    from tools.servers import (
        PostgresCluster,
        RedisServer,
        find_pg_bindir,
        find_redis_server,
    )

    saved = {name: os.environ.get(name) for name in ("DATABASE_URL", "REDIS_URL", "VAR_DIR")}
    directory = Path(tempfile.mkdtemp(prefix="doko-bench-"))
    stack = contextlib.ExitStack()
    try:
        with stack, _terminated_as_interrupt():
            stack.callback(shutil.rmtree, directory, ignore_errors=True)
            os.environ["VAR_DIR"] = str(directory)  # a fresh secret key, media, nothing in var/
            if kind == "sqlite":
                os.environ["DATABASE_URL"] = f"sqlite:///{directory / 'bench.sqlite3'}"
                os.environ.pop("REDIS_URL", None)
                yield "SQLite file, each process's own in-memory cache (no Redis)"
                return
            bindir, missing = find_pg_bindir()
            if bindir is None:
                raise BackendError(
                    f"The benchmarks run on a throwaway PostgreSQL cluster, but "
                    f"{', '.join(missing)} cannot be found (on PATH, in "
                    f"/usr/lib/postgresql/*/bin or in DOKO_PG_BIN). Install the PostgreSQL "
                    f"server (Debian: apt-get install postgresql), or run on SQLite instead: "
                    f"{ESCAPE_HATCH}."
                )
            redis_binary = find_redis_server()
            if redis_binary is None:
                raise BackendError(
                    "The benchmarks use a throwaway Redis as the cache, but redis-server cannot "
                    "be found (Debian: apt-get install redis-server; `make bench` installs it). "
                    f"Or run on SQLite without Redis: {ESCAPE_HATCH}."
                )
            start = time.perf_counter()
            cluster = PostgresCluster(bindir=bindir)
            stack.callback(cluster.stop)
            cluster.start()
            redis = RedisServer(binary=redis_binary)
            stack.callback(redis.stop)
            redis.start()
            os.environ["DATABASE_URL"] = cluster.url
            os.environ["REDIS_URL"] = redis.url
            yield (
                f"PostgreSQL {cluster.version} (port {cluster.port}) and Redis (port "
                f"{redis.port}), throwaway, started in {time.perf_counter() - start:.1f} s"
            )
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def tasks_in_process() -> None:
    """Celery runs every task here and at once, whatever the settings chose for ``REDIS_URL``
    (with it, they would go to a broker that no worker reads); an eager task never touches the
    broker. Call after ``django.setup()``."""
    import logging

    from config.celery import app

    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    logging.getLogger("celery.app.trace").setLevel(logging.WARNING)  # "Task ... succeeded"
