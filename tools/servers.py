"""Real servers for the tests and the benchmarks: a throwaway PostgreSQL cluster, Redis and a
Celery worker.

Each runs on loopback, on a free port, in its own temporary directory, and is stopped (and its
directory deleted) when the tests end, also when they end early. Nothing here imports Django at
module level: the PostgreSQL cluster is started before Django reads its settings.

Environment variables read here:

``DOKO_PG_BIN``
    Look for ``initdb``, ``pg_ctl`` and ``postgres`` only in this directory (instead of on
    ``PATH`` and then in the highest ``/usr/lib/postgresql/*/bin``). A directory without them
    simulates a machine without PostgreSQL.
``DOKO_REDIS_SERVER``
    The ``redis-server`` binary to use instead of the one on ``PATH`` (a path that does not exist
    simulates a machine without Redis).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

PG_BINARIES = ("initdb", "pg_ctl", "postgres")
PG_SUPERUSER = "postgres"
PG_DATABASE = "doko"
# initdb and postgres refuse to run as root; as root, the cluster is owned by and run as this
# unprivileged user, which every Linux system has.
PG_UNPRIVILEGED_USER = "nobody"
# Guards against a hang, not measures: how long a server may take to come up, and a program
# (initdb, pg_ctl, or one a test starts: Django, lint-imports, mkdocs) to end. They hold on a
# machine whose hypervisor takes two thirds of the time (seen in November 2026, where Django's
# start took 22 s instead of one); what never comes up or never ends still fails, after this long.
START_TIMEOUT = 120.0
HANG_SECONDS = 600.0


class ServerError(RuntimeError):
    """A server could not be started."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def log_tail(path: Path, lines: int = 60) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return f"(no log at {path})"
    return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


def child_options(death_signal: int = signal.SIGTERM) -> dict:
    """Popen options for a server started here as a child of the test process.

    It runs in a session of its own, so a Ctrl-C in the terminal reaches pytest only (which then
    stops it in order), and on Linux the kernel sends it ``death_signal`` if the test process dies
    without stopping it (even by SIGKILL), so no server outlives the tests.
    """

    def die_with_parent() -> None:  # pragma: no cover - runs in the child, after setuid
        with contextlib.suppress(Exception):
            pr_set_pdeathsig = 1
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, death_signal, 0, 0, 0)

    return {
        "stdin": subprocess.DEVNULL,
        "stderr": subprocess.STDOUT,
        "start_new_session": True,
        "preexec_fn": die_with_parent if sys.platform.startswith("linux") else None,
    }


def stop_process(process: subprocess.Popen, *, timeout: float = 10.0, group: bool = False) -> None:
    """SIGTERM, then SIGKILL after ``timeout`` (to the process group if it leads one)."""
    if process.poll() is not None:
        return

    def send(sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            if group:
                os.killpg(process.pid, sig)
            else:
                process.send_signal(sig)

    send(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        send(signal.SIGKILL)
        process.wait(timeout)
    if group:  # children that outlived their leader (e.g. prefork pool processes)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)


# PostgreSQL ----------------------------------------------------------------------------------


def find_pg_bindir() -> tuple[Path | None, list[str]]:
    """The directory with initdb, pg_ctl and postgres, and the names missing if there is none.

    ``DOKO_PG_BIN`` if set; else the directory of ``initdb`` on ``PATH`` if all three are there;
    else the highest version under ``/usr/lib/postgresql/*/bin`` (Debian and Ubuntu install the
    server binaries there, off ``PATH``).
    """
    if override := os.environ.get("DOKO_PG_BIN"):
        candidates = [Path(override)]
    else:
        candidates = []
        if initdb := shutil.which("initdb"):
            candidates.append(Path(initdb).resolve().parent)
            candidates.append(Path(initdb).parent)

        def version(path: Path) -> tuple[int, ...]:
            return tuple(int(part) for part in re.findall(r"\d+", path.parent.name)) or (0,)

        candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=version, reverse=True)
    for bindir in candidates:
        if all(os.access(bindir / name, os.X_OK) for name in PG_BINARIES):
            return bindir, []
    missing = [
        name
        for name in PG_BINARIES
        if not any(os.access(bindir / name, os.X_OK) for bindir in candidates)
    ]
    return None, missing or list(PG_BINARIES)


def _unprivileged_ids() -> tuple[int, int]:
    try:
        entry = pwd.getpwnam(PG_UNPRIVILEGED_USER)
    except KeyError:
        return 65534, 65534
    return entry.pw_uid, entry.pw_gid


def _world_traversable_tempdir() -> str:
    """A directory for the cluster that the unprivileged user can reach (TMPDIR may not be)."""
    base = Path(tempfile.gettempdir()).resolve()
    for directory in (base, *base.parents):
        if not directory.stat().st_mode & 0o001:
            return "/tmp"
    return str(base)


@dataclass
class PostgresCluster:
    """A throwaway PostgreSQL cluster; ``start()`` it, then ``stop()`` it (also at exit)."""

    bindir: Path
    directory: Path | None = None
    port: int = 0
    version: str = ""
    process: subprocess.Popen | None = None
    _run_as: dict = field(default_factory=dict)
    _stopped: bool = False

    @property
    def datadir(self) -> Path:
        assert self.directory is not None
        return self.directory / "data"

    @property
    def logfile(self) -> Path:
        assert self.directory is not None
        return self.directory / "postgres.log"

    @property
    def url(self) -> str:
        return f"postgres://{PG_SUPERUSER}@127.0.0.1:{self.port}/{PG_DATABASE}"

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        env.update(LC_ALL="C", LANG="C")
        return env

    def _run(
        self, *args: str, check: bool = True, timeout: float = HANG_SECONDS
    ) -> subprocess.CompletedProcess:
        result = subprocess.run(
            [str(self.bindir / args[0]), *args[1:]],
            cwd=self.directory,
            env=self._env(),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            **self._run_as,
        )
        if check and result.returncode != 0:
            raise ServerError(
                f"{args[0]} failed (exit {result.returncode}):\n{result.stdout}{result.stderr}\n"
                f"--- {self.logfile} ---\n{log_tail(self.logfile)}"
            )
        return result

    def start(self) -> None:
        atexit.register(self.stop)  # also if anything below fails half-way
        if os.geteuid() == 0:
            uid, gid = _unprivileged_ids()
            self._run_as = {"user": uid, "group": gid, "extra_groups": []}
            self.directory = Path(
                tempfile.mkdtemp(prefix="doko-pg-", dir=_world_traversable_tempdir())
            )
            os.chown(self.directory, uid, gid)
        else:
            self.directory = Path(tempfile.mkdtemp(prefix="doko-pg-"))
        self._run(
            "initdb",
            "--pgdata",
            str(self.datadir),
            "--username",
            PG_SUPERUSER,
            "--auth",
            "trust",
            "--encoding",
            "UTF8",
            "--locale",
            "C",
            "--no-sync",
        )
        with (self.datadir / "postgresql.conf").open("a") as conf:
            conf.write(
                "\n# doko tests: loopback only, no durability (the cluster is thrown away)\n"
                "listen_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{self.directory}'\n"
                "fsync = off\nfull_page_writes = off\nsynchronous_commit = off\n"
                "max_connections = 50\nshared_buffers = 32MB\n"
            )
        # The server is started as a child of this process, not by `pg_ctl start` (which leaves
        # it to init): it is reaped here when it stops, and dies with this process (SIGQUIT is
        # PostgreSQL's immediate shutdown).
        env = self._env()
        for attempt in range(3):  # another process may take the free port before postgres does
            self.port = free_port()
            with self.logfile.open("ab") as log:
                self.process = subprocess.Popen(
                    [str(self.bindir / "postgres"), "-D", str(self.datadir), "-p", str(self.port)],
                    cwd=self.directory,
                    env=env,
                    stdout=log,
                    **child_options(signal.SIGQUIT),
                    **self._run_as,
                )
            if self._wait_until_ready():
                return
            if attempt == 2:
                raise ServerError(f"PostgreSQL did not start:\n{log_tail(self.logfile)}")

    def _connected(self, work) -> bool:
        """Call ``work`` with a connection to the ``postgres`` database as soon as the server
        accepts one; False if it exits or does not within ``START_TIMEOUT``."""
        import psycopg

        deadline = time.monotonic() + START_TIMEOUT
        while self.process.poll() is None and time.monotonic() < deadline:
            try:
                with psycopg.connect(
                    host="127.0.0.1",
                    port=self.port,
                    user=PG_SUPERUSER,
                    dbname="postgres",
                    autocommit=True,
                    connect_timeout=2,
                ) as conn:
                    work(conn)
                    return True
            except psycopg.OperationalError:
                time.sleep(0.02)
        return False

    def _wait_until_ready(self) -> bool:
        def create(conn) -> None:
            conn.execute(f"CREATE DATABASE {PG_DATABASE}")
            self.version = conn.execute("SHOW server_version").fetchone()[0]

        if self._connected(create):
            return True
        self._stop_server()
        return False

    def stop(self) -> None:
        if self._stopped:
            return
        self._stopped = True
        self._stop_server()
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)

    def _stop_server(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ServerError, OSError, subprocess.SubprocessError):
                self._run("pg_ctl", "stop", "--pgdata", str(self.datadir), "--mode", "immediate")
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self, *, mode: str = "fast") -> None:
        """Restart the server on the same port and data directory, as ``pg_ctl restart`` does:
        stop it with ``pg_ctl stop`` (``fast``: open sessions are ended, as in a real restart),
        then start ``postgres`` again as a child of this process, as ``start()`` does.
        (``pg_ctl restart`` itself would leave the new server to init, out of reach of
        ``stop()``.) Clients keep their sockets to the old server and find them dead on their
        next query."""

        if self.process is None or self.process.poll() is not None:
            raise ServerError("PostgreSQL is not running, so it cannot be restarted.")
        self._run("pg_ctl", "stop", "--pgdata", str(self.datadir), "--mode", mode, "--wait")
        self.process.wait(30)
        with self.logfile.open("ab") as log:
            self.process = subprocess.Popen(
                [str(self.bindir / "postgres"), "-D", str(self.datadir), "-p", str(self.port)],
                cwd=self.directory,
                env=self._env(),
                stdout=log,
                **child_options(signal.SIGQUIT),
                **self._run_as,
            )
        if self._connected(lambda conn: conn.execute("SELECT 1")):
            return
        raise ServerError(
            f"PostgreSQL did not come back after a restart:\n{log_tail(self.logfile)}"
        )


# Redis ---------------------------------------------------------------------------------------


def find_redis_server() -> str | None:
    if override := os.environ.get("DOKO_REDIS_SERVER"):
        return override if os.access(override, os.X_OK) else None
    return shutil.which("redis-server")


@dataclass
class RedisServer:
    binary: str
    directory: Path | None = None
    port: int = 0
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def logfile(self) -> Path:
        assert self.directory is not None
        return self.directory / "redis.log"

    def _launch(self) -> bool:
        """Run redis-server on ``self.port`` in ``self.directory``; True once it answers."""
        import redis

        with self.logfile.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(self.port),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--dir",
                    str(self.directory),
                    "--daemonize",
                    "no",
                ],
                cwd=self.directory,
                stdout=log,
                **child_options(),
            )
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=1)
        deadline = time.monotonic() + START_TIMEOUT
        try:
            while self.process.poll() is None and time.monotonic() < deadline:
                try:
                    if client.ping():
                        return True
                except redis.ConnectionError:
                    time.sleep(0.02)
        finally:
            client.close()
        return False

    def start(self) -> None:
        atexit.register(self.stop)
        self.directory = Path(tempfile.mkdtemp(prefix="doko-redis-"))
        for attempt in range(3):  # a free port can be taken before the server binds it
            self.port = free_port()
            if self._launch():
                return
            stop_process(self.process)
            if attempt == 2:
                raise ServerError(f"redis-server did not start:\n{log_tail(self.logfile)}")

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None


# Celery worker -------------------------------------------------------------------------------


@dataclass
class CeleryWorker:
    """A real ``celery worker`` process of this project, consuming from ``broker_url``."""

    python: str
    cwd: Path
    env: dict[str, str]
    logfile: Path
    media_root: Path | None = None  # the MEDIA_ROOT in env, for the test process to use too
    process: subprocess.Popen | None = None

    def start(self) -> None:
        atexit.register(self.stop)
        with self.logfile.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    self.python,
                    "-m",
                    "celery",
                    "-A",
                    "config",
                    "worker",
                    "--loglevel=INFO",
                    "--concurrency=1",
                    "--pool=prefork",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                    "-n",
                    "test@%h",
                ],
                cwd=self.cwd,
                env=self.env,
                stdout=log,
                **child_options(),
            )
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerError(
                    f"The Celery worker exited ({self.process.returncode}):\n{self.log()}"
                )
            if re.search(r" ready\.\s*$", self.log(), re.MULTILINE):
                return
            time.sleep(0.05)
        self.stop()
        raise ServerError(
            f"The Celery worker was not ready in {START_TIMEOUT:.0f} s:\n{self.log()}"
        )

    def log(self) -> str:
        try:
            return self.logfile.read_text(errors="replace")
        except OSError:
            return ""

    def logged(self, text: str, *, since: int = 0, timeout: float = 10.0) -> bool:
        """Whether ``text`` appears in the log after its first ``since`` characters, waiting up
        to ``timeout`` seconds: the worker logs a task's success after the task's transaction
        has committed, so a test that saw the result in the database may read the log first."""
        deadline = time.monotonic() + timeout
        while text not in self.log()[since:]:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)
        return True

    def idle(self, *, since: int = 0, queued=lambda: 0, timeout: float = 30.0) -> bool:
        """Whether the worker has finished every task it received after the log's first
        ``since`` characters and ``queued()`` (the broker's waiting messages) is zero, waiting up
        to ``timeout`` seconds. A test's database is emptied after it (TRUNCATE): a task still
        writing then would deadlock with it."""
        deadline = time.monotonic() + timeout
        while True:
            log = self.log()[since:]
            received = set(re.findall(r"\[([0-9a-f-]{36})\] received", log))
            ended = set(re.findall(r"\[([0-9a-f-]{36})\] (?:succeeded|raised|retry|failed)", log))
            if not queued() and received <= ended:
                return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process, group=True)
            self.process = None


# Faults (tests/test_faults.py) ---------------------------------------------------------------


@dataclass
class RestartableRedisServer(RedisServer):
    """A Redis that a test can stop and start again on the same port: the broker going down and
    coming back, with every client keeping its URL."""

    def halt(self) -> None:
        """Stop the server, keeping its port and directory for ``resume()``."""
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def resume(self) -> None:
        """Start the server again on the same port."""
        if self.directory is None or not self.port:
            raise ServerError("start() the server before resume()")
        if not self._launch():
            raise ServerError(f"redis-server did not start again:\n{log_tail(self.logfile)}")


def child_pids(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux, from /proc): a prefork worker's pool."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # ended meanwhile
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return children
