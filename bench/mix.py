"""A save beside cheap requests (issue 45): how long a save waits in the server beyond its
processor time with nothing beside it, and with trivial requests beside it.

On the day's site (``bench.day``: gunicorn 2 × 4, the Celery worker, the run's PostgreSQL and
Redis), ``KEEPERS`` tables of the championship type their 24 hands at once, a hand every 0.3–0.9 s
each, in one phase per rate of ``RATES``: first alone, then with that many trivial requests a
second (``/healthz/``) sent beside them by threads of their own. Each phase has tables of its
own, so that every one types a sheet from its first hand; the tables left over warm the web
processes up first, unmeasured. The server's own times come from its
access log (``bench.server_clock``): a save's wait is its wall time less its processor time,
request by request, of which its database wait is the part spent waiting for PostgreSQL's and
Redis's answers (the rest: waiting for a core or its worker's GIL), and the figure is each
phase's p50 against the first phase's, in the same run.

The eighteenth step of issue 45 found the wait growing from 2.7 ms with ten tables alone to
9.4 ms beside 200 requests a second, with no row lock waited for: a save waits on the network
five times, and after each its thread needs the processor and its worker's GIL back while the
other requests hold them; the trivial view waits once. ``BENCH_MIX_KEEPERS`` and
``BENCH_MIX_RATES`` (comma-separated requests a second) change the run.
"""

import os
import random
import shutil
import tempfile
import threading
import time
from pathlib import Path

import requests
from django.test.utils import setup_test_environment, teardown_test_environment

from bench import day, server_clock
from bench.figures import Figure

KEEPERS = int(os.environ.get("BENCH_MIX_KEEPERS", "10"))
RATES = tuple(int(r) for r in os.environ.get("BENCH_MIX_RATES", "0,20,200").split(","))
HAND_SECONDS = (0.3, 0.9)  # between one save of a table and its next
SENDERS_PER_RATE = 10  # trivial requests a second each thread sends, at most
WARM_HANDS = 6  # each of the tables left over types these first, unmeasured


def figures() -> list[Figure]:
    from django.db import connection

    setup_test_environment(debug=False)
    directory = Path(tempfile.mkdtemp(prefix="doko-bench-mix-"))
    try:
        championship = day._day_tournament(*day.CHAMPIONSHIP, seed=36)
        if len(RATES) < 2 or KEEPERS * len(RATES) > len(championship.tables):
            raise ValueError(
                f"BENCH_MIX_RATES: two rates or more, {KEEPERS} tables each "
                f"(BENCH_MIX_KEEPERS); the championship has {len(championship.tables)} tables"
            )
        connection.close()  # the server's workers have the database to themselves
        site = day._site(directory, 1)
        try:
            # Unmeasured: each web process's first requests make what it then keeps for the
            # round (as bench.day's field warms up); the tables no phase types.
            _phase(site, championship.tables[KEEPERS * len(RATES) :], 0, hands=WARM_HANDS)
            phases = []
            for index, rate in enumerate(RATES):
                tables = championship.tables[index * KEEPERS : (index + 1) * KEEPERS]
                save = _phase(site, tables, rate)
                print(
                    f"mix: {len(tables)} tables saving, {rate} trivial requests/s beside: "
                    f"{save.requests} saves, wall p50 {save.wall_p50:.1f} ms, processor "
                    f"{save.cpu_p50:.1f}, wait {save.wait_p50:.1f} (for the database "
                    f"{save.db_p50:.1f})",
                    flush=True,
                )
                phases.append((rate, save))
        finally:
            site.stop()
    finally:
        teardown_test_environment()
        shutil.rmtree(directory, ignore_errors=True)
    return _figures(phases)


def _figures(phases: list[tuple[int, server_clock.KindTimes]]) -> list[Figure]:
    """Each later phase's save: its wait, its database wait, its wall and processor time
    (p50) against the first phase's."""
    (first_rate, first), *later = phases
    alone = f"{KEEPERS} tables saving, {first_rate} trivial requests/s beside"
    result = []
    for rate, save in later:
        beside = f"mix: {KEEPERS} tables saving, {rate} trivial requests/s beside"
        result += [
            Figure(f"{beside}: save's wait p50", save.wait_p50, alone, first.wait_p50, "ms"),
            Figure(f"{beside}: save's database wait p50", save.db_p50, alone, first.db_p50, "ms"),
            Figure(f"{beside}: save's wall p50", save.wall_p50, alone, first.wall_p50, "ms"),
            Figure(f"{beside}: save's cpu p50", save.cpu_p50, alone, first.cpu_p50, "ms"),
        ]
    return result


def _phase(
    site: day.Site, tables: list[day.Table], rate: int, *, hands: int = 24
) -> server_clock.KindTimes:
    """The tables type their first ``hands`` hands at once, ``rate`` trivial requests a second
    beside them."""
    since = server_clock.marks(site.logs)
    done = threading.Event()
    senders = max(1, -(-rate // SENDERS_PER_RATE)) if rate else 0
    beside = [
        threading.Thread(target=_trivial, args=(site.base, rate / senders, done))
        for _ in range(senders)
    ]
    typing = [threading.Thread(target=_keeper, args=(site.base, table, hands)) for table in tables]
    for thread in beside + typing:
        thread.start()
    for thread in typing:
        thread.join()
    done.set()
    for thread in beside:
        thread.join()
    times = {t.kind: t for t in server_clock.by_kind(site.logs, since)}
    return times["hand write"]


def _keeper(base: str, table: day.Table, hands: int) -> None:
    """The table's scorekeeper types the first ``hands`` hands of its sheet, as the day's
    keepers do."""
    from doko.rules.deal import scorekeeper

    session = requests.Session()
    path = f"{base}/s/{table.tokens[scorekeeper(table.size)]}/"
    page = session.get(path)
    page.raise_for_status()
    version, plain = day._version(page.text), day._plain(page.text)
    for number, line in enumerate(table.lines[:hands], start=1):
        time.sleep(random.uniform(*HAND_SECONDS))
        data = {
            **day._hand_fields(line),
            "number": str(number),
            "version": str(version),
            "plain": plain,
        }
        headers = {"HX-Request": "true", "X-CSRFToken": session.cookies.get("csrftoken", "")}
        saved = session.post(f"{path}save/", data=data, headers=headers)
        saved.raise_for_status()
        version, plain = day._version(saved.text), day._plain(saved.text)


def _trivial(base: str, per_second: float, done: threading.Event) -> None:
    session = requests.Session()
    while not done.is_set():
        session.get(f"{base}/healthz/")
        done.wait(random.uniform(0.5, 1.5) / per_second)
