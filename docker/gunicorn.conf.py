"""Gunicorn settings for the container image (the Dockerfile's CMD passes this file with -c).

Everything that differs between deployments comes from the environment:

    WEB_CONCURRENCY      worker processes; default 2 x usable CPUs + 1, at most 8
    GUNICORN_THREADS     threads per worker (gthread); default 4
    GUNICORN_TIMEOUT     seconds a request may run before its worker is killed; default 30
    FORWARDED_ALLOW_IPS  addresses of the reverse proxy whose X-Forwarded-* headers gunicorn
                         trusts (comma-separated IPs or networks, "*" for any); default
                         127.0.0.1,::1
    LOG_LEVEL            level of gunicorn's own log, as for Django's; default INFO
    SWITCH_INTERVAL_MS   how long a computing thread may keep Python's GIL from the others
                         (sys.setswitchinterval), in milliseconds; default 1 (Python's: 5)
    GC_YOUNG             new objects between two young collections of the cycle collector
                         (gc.set_threshold); default 10000 (Python's: 700)

Each worker thread keeps its own database connection (CONN_MAX_AGE), so one web container
holds up to workers x threads connections to PostgreSQL (at most 32 with the defaults; the
server allows 100).
"""

import gc
import math
import os
import sys
from pathlib import Path

from gunicorn.glogging import Logger

# The application's directory, for config.logs (gunicorn reads this file before it loads the app).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from config.logs import mask_seat_keys


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = int(value)
    except ValueError:
        raise SystemExit(f"{name} must be a whole number, not {value!r}.") from None
    if number < 1:
        raise SystemExit(f"{name} must be at least 1, not {number}.")
    return number


def _usable_cpus() -> int:
    """CPUs this process may use: its CPU set, capped by a cgroup v2 quota (`docker --cpus`)."""
    count = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    count = count or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if quota != "max":
            count = min(count, max(1, math.ceil(int(quota) / int(period))))
    except (OSError, ValueError):
        pass
    return count


wsgi_app = "config.wsgi:application"
bind = ["0.0.0.0:8000"]
proc_name = "doko-web"

workers = _env_int("WEB_CONCURRENCY", min(2 * _usable_cpus() + 1, 8))
worker_class = "gthread"
threads = _env_int("GUNICORN_THREADS", 4)

timeout = _env_int("GUNICORN_TIMEOUT", 30)
graceful_timeout = 30  # docker-compose.yml's stop_grace_period for web is a little longer
keepalive = 5  # a reverse proxy in front reuses its connections
# Restart each worker now and then, so that a slow leak never grows without bound; but
# rarely. At 1,000 requests a tournament day's load (37 tables typing, 300 phones polling:
# issue 36) restarted a worker about every 17 s, and in the 3 s after each restart the p99
# latency was 2.5x the rest of the run's (a new process loads Django, opens its connections
# and fills its memory caches again). At 20,000 a worker lives for some minutes under that
# load and for hours on a quiet day; the jitter keeps two workers from restarting together.
max_requests = 20000
max_requests_jitter = 2000
# The heartbeat file on tmpfs: on an overlay file system its fchmod can stall a worker.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None

# A worker's threads mostly wait for PostgreSQL and Redis, and after every answer a thread
# waits for the GIL again: while another thread renders a page, up to the switch interval each
# time. At Python's 5 ms a request of a dozen queries could wait longer for the GIL than for
# the database. At 1 ms the tournament day's trivial view kept its p99 under the load within
# 2.3-2.8x its quiet p99, against 3.3x at 5 ms (docs/benchmarks.md, issue 45).
switch_interval = _env_int("SWITCH_INTERVAL_MS", 1) / 1000


def post_fork(server, worker):
    """In each worker, once forked: the switch interval above."""
    sys.setswitchinterval(switch_interval)


# What a request leaves behind is mostly cycles (a sheet and its hands, each naming the other),
# which only the cycle collector frees. At Python's 700 new objects a young collection, every
# few requests' survivors reached the oldest generation, and each full collection went through
# some 100,000 objects made since the freeze below: 40-67 ms holding the GIL, 16-20 times a
# worker in a tournament day's run, and a field's step failed on the saves it stalled. At
# 10,000 a young collection takes 5-13 ms, the survivors are fewer, and the full ones came
# 2-3 times a run (docs/benchmarks.md, issue 45). GC_YOUNG sets it.
GC_YOUNG = _env_int("GC_YOUNG", 10000)


def post_worker_init(worker):
    """In each worker, once it has loaded the application: Django's modules and the URL
    patterns with every view moved out of the cycle collector's way for good (``gc.freeze``).
    They live as long as the worker, yet every full collection went through all of them (some
    160,000 objects), 30-40 ms holding the GIL in which none of the worker's threads answered:
    a slow request for whoever asked then (docs/benchmarks.md, issue 45). What requests leave
    behind is still collected, in larger and so rarer young collections (``GC_YOUNG``)."""
    from django.urls import get_resolver

    _ = get_resolver().url_patterns  # imports every view, as the first request would
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])


forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "").strip() or "127.0.0.1,::1"


class SeatKeyMaskingLogger(Logger):
    """gunicorn's logger, writing the seats' private keys as ``…`` in the access log: in the
    request line, the path, the query (``next=%2Fs%2F<key>``), the Referer (a page under
    ``/s/<key>/`` names itself in the Referer of every file and request it loads) and any other
    field of the format (config/logs.py)."""

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            name: mask_seat_keys(value) if isinstance(value, str) else value
            for name, value in atoms.items()
        }


logger_class = SeatKeyMaskingLogger
accesslog = "-"
errorlog = "-"
loglevel = (os.environ.get("LOG_LEVEL", "").strip() or "info").lower()
# The default format, plus the time each request took.
access_log_format = '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(M)sms'
