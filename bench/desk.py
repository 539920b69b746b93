"""The desk's page of a round (issue 29): round 10 of the run's 2,000-player tournament, 500
tables, set for the time of the suite in a mix of states as at the end of a paper tournament's
round, read by a member of the desk through gunicorn (2 workers × 4 threads, the run's
PostgreSQL and Redis, DEBUG off) and loaded by wrk; target: it answers within 2× the trivial
view's time, that is at least 0.5× its requests per second under load and at most 2× its
latency, measured in turns with it in the same server as the standings suite does (6 pairs of
2 s; each pair gives a ratio, bench.figures). Each phase is measured against the trivial view
for a reader who is logged in too (his session and account read, nothing else:
``bench/urls.py``), the least any page of a member of the desk costs.

Round 10 for the suite (bench.tournament built it closed, every sheet confirmed): the playing
time ended ten minutes ago, eight tables play on with extra time; the tournament keeps its
sheets on paper or phones and checks paper sheets by double entry; 300 sheets confirmed, 100
handed in through a seat's link, 40 typed at the desk and handed in (35 waiting for their second
entry, 15 of them with one under way; 5 whose second entry differs), 45 typed in part, 10 of
them with a complaint open, and 15 with no hand yet. Every sheet has its history (a change per
hand, the handing in, the confirmation), as the desk's "last change" reads it. Everything is put
back as it was afterwards, so that the other suites meet the tournament bench.tournament built.

Three ways in:
- under load (100 connections): the page, the list alone as the page's refresh asks for it
  (htmx), that refresh unchanged (a 304), and the list while a sheet of the round changes every
  second (each change renders the list again once per process);
- one connection at a time: the median latency of the page, of the list and of the logged-in
  trivial view;
- in process (Django's test client in this process, its median): the page and the list cached,
  against the empty view, logged in or not; and what a change costs, the list read and rendered
  anew (``desk_read`` and the template), against reading the round's sheets' rows.

Where the time went (issue 29; shared machine, so the figures vary by half from phase to phase):

- Rendering the list of 500 tables after a change took 240 ms: 65 ms reading it (two queries)
  and 175 ms in the template, an include and a blocktranslate per row and every label translated
  again per row; the answer was 244 KB. With the rows put into words once in Python and nine
  values a row in the template: 68-118 ms, 156 KB.
- A cached request of a logged-in reader cost 9.5-11.5 ms with one connection against the
  trivial view's 1.1-1.3 ms: Django's session and account (two queries, 5.5 ms for the
  logged-in trivial view), the round with its tournament and the reader's roles (one query,
  1.5-2.7 ms), one round trip to Redis for the round's version (0.2-0.3 ms) and 151 KB. Each
  web process now remembers, per session, that it may read this round's desk, and the round's
  version, for DESK_READER_SECONDS (2 s), and keeps the page around the list per session while
  the list holds: a refresh costs no query and no round trip. And the list and page are kept
  gzipped too (157 KB → 13 KB), as every browser takes them. Then, with one connection, the page
  takes 1.9 ms and the list 1.9-2.2 ms against the trivial view's 1.25-1.3 ms (1.5-1.6x);
  under load (100 connections) the list reaches 0.5-0.6x of the trivial view's requests with
  its p99 at 1.8-2.5x, the refresh (304) 0.7x at 1.6-1.7x, the page 0.4-0.5x at 2.1-2.2x, and
  the list while a sheet changes every second (each change renders it again, 120 ms, once per
  process) 0.4-0.5x at 1.9-3.0x. The logged-in trivial view, which reads the session and the
  account, reaches only 0.2x of the trivial view's requests and takes 5.8-6.3 ms alone.
"""

import datetime
import http.cookiejar
import random
import re
import shutil
import tempfile
import threading
import urllib.parse
import urllib.request
from contextlib import contextmanager, nullcontext
from pathlib import Path

from django.db import transaction
from django.test.utils import setup_test_environment, teardown_test_environment
from django.utils import timezone

from bench.figures import Figure, alternate, drift, in_turn_with, median_ms
from bench.standings import CONNECTIONS, PAIR_SECONDS, PAIRS, THREADS, WORKERS, _server, _wrk
from bench.tournament import ROUNDS, SEED, shared

USERNAME, PASSWORD = "bench-desk", "desk-bench-password-2026"
CHANGES_PER_SECOND = 1


def figures() -> list[Figure]:
    from django.db import connection

    setup_test_environment(debug=False)
    directory = Path(tempfile.mkdtemp(prefix="doko-bench-desk-"))
    large = shared()
    try:
        with _round_for_the_desk(large) as round_:
            in_process = _in_process(round_)
            connection.close()  # the server's workers have the database to themselves
            return [*in_process, *_under_load(directory, round_)]
    finally:
        teardown_test_environment()
        shutil.rmtree(directory, ignore_errors=True)


# Round 10 as at the end of a round --------------------------------------------------------------


@contextmanager
def _round_for_the_desk(large):
    """Round 10 in a mix of states for the suite, and as it was again afterwards."""
    from django.contrib.auth import get_user_model

    from scoring.models import Hand, Scoresheet
    from tournaments.models import Round, Tournament, TournamentRole

    tournament = large.tournament
    round_ = Round.objects.select_related("tournament").get(tournament=tournament, number=ROUNDS)
    sheets = list(Scoresheet.objects.filter(table__round=round_).values())
    hands = list(Hand.objects.filter(scoresheet__table__round=round_).values())
    saved_round = {f: getattr(round_, f) for f in ("status", "started_at", "ended_at")}
    saved_tournament = {f: getattr(round_.tournament, f) for f in ("sheet_keeping", "double_entry")}
    user = get_user_model().objects.create_user(
        username=USERNAME, password=PASSWORD, first_name="Dora", last_name="Desk"
    )
    TournamentRole.objects.create(
        tournament=tournament, user=user, role=TournamentRole.Role.ORGANISER
    )
    try:
        _mix(round_, user)
        yield Round.objects.select_related("tournament").get(pk=round_.pk)
    finally:
        with transaction.atomic():
            _unmix(round_)
            Hand.objects.filter(scoresheet__table__round=round_).delete()
            Hand.objects.bulk_create(Hand(**values) for values in hands)
            Scoresheet.objects.bulk_update(
                [Scoresheet(**values) for values in sheets],
                [f for f in sheets[0] if f not in {"id", "table_id"}],
            )
            Round.objects.filter(pk=round_.pk).update(**saved_round)
            Tournament.objects.filter(pk=tournament.pk).update(**saved_tournament)
            TournamentRole.objects.filter(user=user).delete()
            user.delete()


def _unmix(round_) -> None:
    from adjudication.models import Decision
    from scoring.models import ScoresheetChange, SecondEntry
    from tournaments.models import ExtraTime

    Decision.objects.filter(scoresheet__table__round=round_).delete()
    SecondEntry.objects.filter(scoresheet__table__round=round_).delete()
    ScoresheetChange.objects.filter(scoresheet__table__round=round_).delete()
    ExtraTime.objects.filter(table__round=round_).delete()


# How round 10's 500 sheets stand for the suite: how many of each kind.
MIX = {
    "confirmed": 300,
    "link": 100,  # handed in by the scorekeeper's link, not confirmed yet
    "desk-waiting": 20,  # handed in at the desk, waiting for the second entry
    "desk-second": 15,  # the second entry under way
    "desk-to-settle": 5,  # the second entry differs: to settle
    "typing": 35,
    "complaint": 10,
    "empty": 15,
}


@transaction.atomic
def _mix(round_, desk_user) -> None:
    """The states, written directly (the services would take minutes for 500 sheets)."""
    from doko.sample_sheets import full_match
    from scoring.models import Scoresheet
    from scoring.selectors import hand_snapshot
    from tournaments import caching

    now = timezone.now()
    _round_finished(round_, now)
    sheets = list(
        Scoresheet.objects.filter(table__round=round_)
        .select_related("table")
        .order_by("table__number")
    )
    rng = random.Random(SEED + 29)
    order = sheets[:]
    rng.shuffle(order)
    kinds = [kind for kind, count in MIX.items() for _ in range(count)]
    assert len(kinds) == len(order) == 500, (len(kinds), len(order))
    keepers = dict(
        Scoresheet.objects.filter(table__round=round_).values_list(
            "pk", "submitted_by_seat__entry__last_name"
        )
    )
    changes, entries, decisions = [], [], []
    match = [hand_snapshot(line) for line in full_match()]
    for sheet, kind in zip(order, kinds, strict=True):
        keeper = f"Vorname {keepers[sheet.pk]} (seat 4)"
        changes += _sheet_in_state(sheet, kind, rng, now=now, keeper=keeper, desk_user=desk_user)
        if kind in {"desk-second", "desk-to-settle"}:
            entries.append(_second_entry(sheet, kind, rng, match, now=now, desk_user=desk_user))
        elif kind == "complaint":
            decisions.append(_complaint(sheet, desk_user))
    _mix_records_written(sheets, changes, entries, decisions, desk_user)
    caching.round_changed(round_.pk)


def _round_finished(round_, now) -> None:
    """The tournament keeps sheets both ways with double entry; the round ended ten minutes
    ago, after 100 minutes."""
    from tournaments.models import Round, SheetKeeping, Tournament

    Tournament.objects.filter(pk=round_.tournament_id).update(
        sheet_keeping=SheetKeeping.BOTH, double_entry=True
    )
    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.FINISHED,
        started_at=now - datetime.timedelta(minutes=110),
        ended_at=now - datetime.timedelta(minutes=10),
    )


def _sheet_in_state(sheet, kind: str, rng, *, now, keeper: str, desk_user) -> list[tuple]:
    """The sheet's hands cut to those typed so far and its status, version and who handed it in
    set for ``kind``; its changes (sheet, version, action, by whom) as the log would have them."""
    from scoring.models import Hand, Scoresheet

    changes = []
    typed = {"typing": rng.randint(6, 22), "complaint": rng.randint(3, 20), "empty": 0}.get(
        kind, 24
    )
    at = now - datetime.timedelta(minutes=110) + datetime.timedelta(minutes=4)
    version = 1
    for _number in range(1, typed + 1):
        version += 1
        at += datetime.timedelta(minutes=4)
        by = "Dora Desk" if kind.startswith("desk") else keeper
        changes.append((sheet, version, "hands", by))
    if kind != "confirmed":
        Hand.objects.filter(scoresheet=sheet, number__gt=typed).delete()
    fields = {"version": version + (2 if kind == "confirmed" else 1)}
    if kind in {"typing", "complaint", "empty"}:
        fields |= {
            "status": Scoresheet.Status.DRAFT,
            "submitted_at": None,
            "submitted_by_seat": None,
            "confirmed_at": None,
            "confirmed_by_seat": None,
            "version": version,
        }
    elif kind == "link":
        changes.append((sheet, version + 1, "submit", keeper))
        fields |= {"status": Scoresheet.Status.SUBMITTED, "confirmed_at": None}
        fields |= {"confirmed_by_seat": None, "submitted_at": at}
    elif kind.startswith("desk"):
        changes.append((sheet, version + 1, "submit", "Dora Desk"))
        fields |= {"status": Scoresheet.Status.SUBMITTED, "confirmed_at": None}
        fields |= {"confirmed_by_seat": None, "submitted_by_seat": None}
        fields |= {"submitted_by": desk_user, "submitted_at": at}
    else:
        changes.append((sheet, version + 1, "submit", keeper))
        changes.append((sheet, version + 2, "confirm", "Vorname Erste (seat 1)"))
    Scoresheet.objects.filter(pk=sheet.pk).update(**fields)
    return changes


def _second_entry(sheet, kind: str, rng, match: list, *, now, desk_user):
    """The desk's second entry of the sheet: under way, or complete and differing in one hand
    (to settle)."""
    from scoring.models import SecondEntry

    if kind == "desk-second":
        return SecondEntry(scoresheet=sheet, by=desk_user, hands=match[: rng.randint(3, 23)])
    return SecondEntry(
        scoresheet=sheet,
        by=desk_user,
        hands=match,
        differences=[rng.randint(1, 24)],
        compared_at=now,
    )


def _complaint(sheet, desk_user):
    """A complaint about hand 2, recorded at the desk, not ruled on yet."""
    from adjudication.models import Decision

    return Decision(
        scoresheet=sheet,
        hand_number=2,
        offender=2,
        complainant=1,
        description="Revoke",
        recorded_by=desk_user,
    )


def _mix_records_written(sheets, changes, entries, decisions, desk_user) -> None:
    """The changes' log, the second entries and the complaints in one go each, and extra time
    for eight tables."""
    from adjudication.models import Decision
    from scoring.models import ScoresheetChange, SecondEntry
    from tournaments.models import ExtraTime

    ScoresheetChange.objects.bulk_create(
        ScoresheetChange(
            scoresheet=sheet,
            version=version,
            action=action,
            by_name=by,
            before={},
            after={},
        )
        for sheet, version, action, by in changes
    )
    SecondEntry.objects.bulk_create(entries)
    Decision.objects.bulk_create(decisions)
    ExtraTime.objects.bulk_create(
        ExtraTime(table=sheet.table, minutes=15, reason="Complaint", granted_by=desk_user)
        for sheet in sheets[100:108]
    )


# In process -----------------------------------------------------------------------------------


IN_PROCESS_PAIRS = 5


def _median_ms(function, calls: int = 200 // IN_PROCESS_PAIRS):
    """A measurement: the median of ``calls`` calls of ``function`` (ms), once warmed up."""
    return median_ms(function, calls=calls, warm_up=10)


def _in_process(round_) -> list[Figure]:
    from django.test import Client, override_settings
    from django.urls import reverse

    from scoring import selectors
    from scoring.models import Scoresheet
    from scoring.views import desk
    from tournaments.caching import round_version_raise

    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    assert client.login(username=USERNAME, password=PASSWORD)
    url = reverse("scoring:desk", args=[round_.tournament.slug, round_.number])
    reader = desk._Reader(round=round_, state=None)

    def rows() -> list:
        return list(Scoresheet.objects.filter(table__round=round_).values())

    read, rendered = (
        [(value / 1000, base / 1000) for value, base in pairs]
        for pairs in in_turn_with(
            rows,
            [lambda: selectors.desk_read(round=round_), lambda: desk._render(reader)],
            pairs=IN_PROCESS_PAIRS,
            seconds=0.12,
            best_of=2,
        )
    )
    desk_state = selectors.desk_read(round=round_)
    counts = ", ".join(f"{state.value} {n}" for state, n in desk_state.counts.items())
    with override_settings(ROOT_URLCONF="bench.urls"):
        answer = client.get(url)
        assert answer.status_code == 200, answer.status_code
        size = len(answer.content)

        def afresh():
            round_version_raise([round_.pk])  # as a save's commit does: the list is rendered anew
            client.get(url + "list/", HTTP_HX_REQUEST="true")

        logged_in, page, listed, changed = alternate(
            _median_ms(lambda: client.get("/bench/empty/")),
            [
                _median_ms(lambda: client.get("/bench/user/")),
                _median_ms(lambda: client.get(url)),
                _median_ms(lambda: client.get(url + "list/", HTTP_HX_REQUEST="true")),
                _median_ms(afresh, calls=5),
            ],
            pairs=IN_PROCESS_PAIRS,
        )
    baseline = f"reading the round's {len(desk_state.rows)} sheets' rows"
    empty = "empty view in process (median)"
    print(f"desk of round {round_.number}: {counts}; the page {size / 1024:,.0f} KB")
    return [
        Figure.paired("empty view in process, logged in (median)", logged_in, empty, "ms"),
        Figure.paired("desk_read, 500 tables (2 queries)", read, baseline, "ms"),
        Figure.paired("  the list rendered anew (desk_read + template)", rendered, baseline, "ms"),
        Figure.paired(
            f"desk page in process, cached ({size / 1024:,.0f} KB, median)", page, empty, "ms"
        ),
        Figure.paired("desk list (htmx) in process, cached (median)", listed, empty, "ms"),
        Figure.paired("desk list (htmx) in process after a change (median)", changed, empty, "ms"),
    ]


# Under load -----------------------------------------------------------------------------------


def _login(base: str) -> str:
    """A member of the desk logged in at the server, as a browser does: the cookies to send."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login = f"{base}/accounts/login/"
    page = opener.open(login, timeout=30).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token, "username": USERNAME, "password": PASSWORD}
    ).encode()
    opener.open(urllib.request.Request(login, data=data, headers={"Referer": login}), timeout=30)
    cookies = {cookie.name: cookie.value for cookie in jar}
    assert "sessionid" in cookies, f"no session after logging in: {sorted(cookies)}"
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


def _fetch(url: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Language": "de", **headers})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@contextmanager
def _changing(round_id: int):
    """A sheet of the round changes CHANGES_PER_SECOND times a second meanwhile: the round's
    version raised in the shared cache, as a save's commit raises it."""
    from tournaments.caching import round_version_raise

    stop = threading.Event()

    def change() -> None:
        while not stop.wait(1 / CHANGES_PER_SECOND):
            round_version_raise([round_id])

    thread = threading.Thread(target=change, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _under_load(directory: Path, round_) -> list[Figure]:
    from tools.servers import stop_process

    if shutil.which("wrk") is None:
        raise RuntimeError("The load needs wrk (Debian: apt-get install wrk).")
    process, base = _server(directory)
    try:
        return _load(base, round_)
    finally:
        stop_process(process)


def _load(base: str, round_) -> list[Figure]:
    """The desk's page and list under wrk against a trivial view in turn, with many connections
    and then with one."""
    page, listed, seen, phases = _desk_phases(base, round_)
    trivial = f"{base}/bench/empty/"
    logged_in = f"{base}/bench/user/"
    for url, headers in [
        (trivial, {}),
        (logged_in, seen),
        *((url, headers) for _n, url, headers, _c in phases),
    ]:
        _wrk(url, seconds=1, connections=8, **headers)  # warm up
    figures = []
    for phase in phases:
        figures += _phase_figures(phase, round_, trivial=trivial, logged_in=logged_in, seen=seen)
    hx = {**seen, "HX-Request": "true"}
    return figures + _one_connection_figures(page, listed, trivial, logged_in, seen, hx)


def _desk_phases(base: str, round_) -> tuple[str, str, dict, list[tuple]]:
    """The desk's page and list read once as the desk's account reads them, then as a browser
    (gzipped, the list's ETag answered with 304): their addresses, the browser's headers and
    what wrk loads (label, address, headers, whether a sheet changes every second)."""
    cookie = _login(base)
    seen = {"Cookie": cookie, "Accept-Language": "de"}
    page = f"{base}/tournaments/{round_.tournament.slug}/rounds/{round_.number}/desk/"
    listed = f"{page}list/"
    status, _headers, body = _fetch(page, **seen)
    assert status == 200, f"GET {page}: {status}"
    assert body.count(b"<tr class=") == 500, body.count(b"<tr class=")
    status, headers, list_body = _fetch(listed, **seen, **{"HX-Request": "true"})
    # From here on as a browser asks: it takes gzip, and the desk keeps its answers gzipped.
    seen["Accept-Encoding"] = "gzip, deflate, br"
    packed = _fetch(page, **seen)[2]
    status, headers, packed_list = _fetch(listed, **seen, **{"HX-Request": "true"})
    assert headers.get("Content-Encoding") == "gzip", headers
    etag = headers["ETag"]
    assert _fetch(listed, **seen, **{"HX-Request": "true", "If-None-Match": etag})[0] == 304
    hx = {**seen, "HX-Request": "true"}
    phases = [
        (
            f"desk page, 500 tables ({len(body) / 1024:,.0f} KB, "
            f"gzipped {len(packed) / 1024:,.0f} KB)",
            page,
            seen,
            False,
        ),
        (
            f"desk list (htmx) ({len(list_body) / 1024:,.0f} KB, "
            f"gzipped {len(packed_list) / 1024:,.0f} KB)",
            listed,
            hx,
            False,
        ),
        ("desk list (htmx), 304 (If-None-Match)", listed, {**hx, "If-None-Match": etag}, False),
        ("desk list (htmx), a sheet changing every second", listed, hx, True),
        (
            f"trivial view answering {len(body) / 1024:,.0f} KB, no target",
            f"{base}/bench/bytes/{len(body)}/",
            {},
            False,
        ),
    ]
    return page, listed, seen, phases


def _phase_figures(phase: tuple, round_, *, trivial: str, logged_in: str, seen: dict) -> list:
    """One phase under ``CONNECTIONS`` connections, in turn with the trivial view (and, for a
    target, the trivial view logged in): requests per second and p99 against them."""
    label, url, headers, changing = phase
    name = f"trivial view, {CONNECTIONS} connections"
    user_name = f"trivial view logged in, {CONNECTIONS} connections"
    target = "no target" not in label
    runs = []
    for _ in range(PAIRS):
        empty = _wrk(trivial, seconds=PAIR_SECONDS)
        user = _wrk(logged_in, seconds=PAIR_SECONDS, **seen) if target else empty
        with _changing(round_.pk) if changing else nullcontext():
            run = _wrk(url, seconds=PAIR_SECONDS, **headers)
        runs.append((empty, user, run))

    def against(key: str, figure: int, baseline: int) -> list[tuple[float, float]]:
        return [(turn[figure][key], turn[baseline][key]) for turn in runs]

    figures = [
        drift(
            f"{name} (gunicorn {WORKERS} × {THREADS}), in turn with the next",
            [turn[0]["rate"] for turn in runs],
            "/s",
        ),
        Figure.paired(
            f"{label}: requests" + (" [≥ 0.5x]" if target else ""),
            against("rate", 2, 0),
            name,
            "/s",
        ),
        Figure.paired(
            f"{label}: p99" + (" [≤ 2x]" if target else ""), against("p99", 2, 0), name, "ms"
        ),
    ]
    if target:
        # The least any page of a logged-in reader costs: his session and account read.
        figures += [
            Figure.paired(f"{user_name}, in turn", against("rate", 1, 0), name, "/s"),
            Figure.paired(f"{label}: requests [≥ 0.5x]", against("rate", 2, 1), user_name, "/s"),
        ]
    return figures


def _one_connection_figures(page, listed, trivial, logged_in, seen, hx) -> list[Figure]:
    """One connection at a time: the time a request takes when nothing waits for the
    processor."""
    one = "trivial view, 1 connection (median latency)"
    figures = []
    for label, url, headers in (
        ("desk page, 1 connection", page, seen),
        ("desk list (htmx), 1 connection", listed, hx),
        ("trivial view logged in, 1 connection, no target", logged_in, seen),
    ):
        pairs = []
        for _ in range(PAIRS):
            empty = _wrk(trivial, seconds=PAIR_SECONDS, connections=1)
            run = _wrk(url, seconds=PAIR_SECONDS, connections=1, **headers)
            pairs.append((run["p50"], empty["p50"]))
        mark = "" if "no target" in label else " [≤ 2x]"
        figures += [
            drift(one, [base for _run, base in pairs], "ms"),
            Figure.paired(f"{label}: median latency{mark}", pairs, one, "ms"),
        ]
    return figures
