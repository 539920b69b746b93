"""What each write of a tournament day costs the server in processor time (issue 45): the hand's
save, the live check, handing in, confirming and the desk's blind second entry, each against a
view that authenticates the same way, reads the scoresheet row and writes one row in a
transaction (``bench.urls``), in turn with it. Target: each within 3x its baseline.

The round: the German championship's size (148 players, 37 tables of four), round 4 of a
tournament whose first three rounds are played and confirmed, the sheets kept on phones or on
paper and paper sheets checked by double entry. Four of its tables are set for the writes:

- table 1, 20 hands typed through the scorekeeper's link: the live check of hand 21 and its
  save, as the entry page sends them (htmx, naming the sheet's version), the same save as the
  offline queue sends it (asking for JSON), and the hands through the API (PUT, ``X-Seat-Key``);
- table 2, all 24 hands typed: handed in by the scorekeeper's link (page and API);
- table 3, handed in: confirmed by seat 1's link (page and API);
- table 4, typed and handed in at the desk by its organiser; its second entry, 20 hands typed
  blind by a scorekeeper account: hand 21 saved on the second entry's page (a logged-in
  session, htmx).

Every request goes through Django's test client in this thread, on this thread's connection,
each in a savepoint rolled back afterwards, so that each one writes to the same sheet as the
last. The clock is the thread's processor time (``time.thread_time``): what the request costs
this web process, without the time the machine gave to others, and without the database
server's own work (another process; on ``BENCH_DB=sqlite`` the database works in this thread
and is counted).

What the request includes: everything up to and including its answer. Not its commit's
callbacks (a savepoint never commits): in production they raise two cache versions and, after a
hand-in or confirm, queue the standings' rebuild to a Celery worker (``standings_schedule``),
which the suite ``standings`` measures; here it would run in the request
(``bench.backends.tasks_in_process``), which production does not.
"""

import cProfile
import gc
import os
import pstats
import statistics
import time
from urllib.parse import urlencode

from django.db import transaction
from django.test import Client, override_settings

from bench.figures import Figure, alternate

SLUG, PLAYERS, BEFORE = "writes-dm", 148, 3  # the championship: round 4 after three
TYPED = 20  # hands on the sheet before the measured save
CALLS = 16  # requests per measurement (their median), of each
PAIRS = 9
SEED = 45


def figures() -> list[Figure]:
    world = _world()
    # Measured as production serves: DEBUG off (no query log), and no test environment (whose
    # template renderer copies each template's context for the test client). One client sends
    # hundreds of writes a minute through one seat's link, past the link's rate limit
    # (SEAT_LINK_RATE): lifted, or the 429s would be measured.
    with (
        override_settings(
            ROOT_URLCONF="bench.urls",
            SEAT_LINK_RATE="1000000000/s",
            DEBUG=False,
            ALLOWED_HOSTS=["testserver"],
        ),
        transaction.atomic(),
    ):
        measured = _measure(world)
        transaction.set_rollback(True)
    return measured


# The round ------------------------------------------------------------------------------------


def _hand_fields(line) -> dict[str, str]:
    """The entry row's fields for a hand, as the page sends them."""
    from scoring.forms import initial_for

    fields = {}
    for name, value in initial_for(line, mode="raw").items():
        if value is None or value is False or value == "":
            continue
        fields[name] = "on" if value is True else str(value)
    return fields


def _match(rng, size: int, hands: int) -> list:
    """A match the entry row can type: no replays, penalties or stand-ins."""
    from doko.simulation import simulate_match

    while True:
        lines = simulate_match(rng=rng, table_size=size, hands_per_match=hands)
        if not any(line.not_played or line.penalty or line.dealt_by_neighbour for line in lines):
            return lines


def _world() -> dict:
    """The championship's round 4, running, with its four tables set as the docstring says."""
    import random

    from django.contrib.auth.models import User

    from bench.tournament import played, players
    from doko.rules.deal import scorekeeper
    from scoring import services as scoring
    from scoring.models import Scoresheet
    from scoring.services import Actor
    from tournaments import services
    from tournaments.models import SheetKeeping, Tournament, TournamentRole

    start = time.perf_counter()
    rng = random.Random(SEED)
    tournament, _tables = played(
        players(PLAYERS), slug=SLUG, players=PLAYERS, rounds=BEFORE, seed=SEED
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        planned_rounds=BEFORE + 5, sheet_keeping=SheetKeeping.BOTH, double_entry=True
    )
    tournament.refresh_from_db()
    Role = TournamentRole.Role
    organiser = User.objects.create_user("writes-orga", first_name="Olga", last_name="Ordner")
    second = User.objects.create_user("writes-desk", first_name="Zora", last_name="Zweit")
    TournamentRole.objects.create(tournament=tournament, user=organiser, role=Role.ORGANISER)
    TournamentRole.objects.create(tournament=tournament, user=second, role=Role.SCOREKEEPER)
    round_ = services.round_create(tournament=tournament)
    services.round_seat(round=round_, seed=SEED)
    services.tournament_seating_publish(tournament=tournament)
    round_ = services.round_start(round=round_)

    def sheet(number: int) -> Scoresheet:
        return Scoresheet.objects.select_related("table__round__tournament").get(
            table__round=round_, table__number=number
        )

    def tokens(number: int) -> dict[int, str]:
        return {seat.position: seat.token for seat in sheet(number).table.seats.all()}

    size = 4
    hands = tournament.hands_at(size)
    keeper = scorekeeper(size)
    lines = {number: _match(rng, size, hands) for number in (1, 2, 3, 4)}

    def typed(number: int, count: int, by: Actor) -> Scoresheet:
        current = sheet(number)
        return scoring.scoresheet_hands_replace(
            scoresheet=current, hands=lines[number][:count], version=current.version, by=by
        )

    def keeper_of(number: int) -> Actor:
        return Actor(seat=sheet(number).table.seats.get(position=keeper))

    typed(1, TYPED, keeper_of(1))
    typed(2, hands, keeper_of(2))
    done = typed(3, hands, keeper_of(3))
    scoring.scoresheet_submit(scoresheet=done, version=done.version, by=keeper_of(3))
    desk = typed(4, hands, Actor(user=organiser))
    scoring.scoresheet_submit(scoresheet=desk, version=desk.version, by=Actor(user=organiser))
    scoring.second_entry_hands_replace(
        scoresheet=sheet(4), hands=lines[4][:TYPED], by=second, version=0
    )
    print(f"writes: the round built in {time.perf_counter() - start:.0f} s", flush=True)
    return {
        "tournament": tournament,
        "round": round_,
        "second": second,
        "sheets": {number: sheet(number) for number in (1, 2, 3, 4)},
        "tokens": {number: tokens(number) for number in (1, 2, 3, 4)},
        "lines": lines,
        "keeper": keeper,
    }


# The measurement ------------------------------------------------------------------------------


def _ms(request, expect: int = 200):
    """A measurement: the median processor time (ms) of ``CALLS`` calls of ``request``, each
    in a savepoint rolled back after it; the status checked."""

    def once() -> float:
        point = transaction.savepoint()
        try:
            start = time.thread_time()
            response = request()
            spent = time.thread_time() - start
            assert response.status_code == expect, (
                response.status_code,
                response.content.decode()[:2000],
            )
        finally:
            transaction.savepoint_rollback(point)
        return spent

    for _ in range(3):  # templates compiled, connections open, caches warm
        once()

    def measure() -> float:
        return statistics.median(once() for _ in range(CALLS)) * 1000

    return measure


def _profile(paths: dict, wanted: str) -> None:
    """``BENCH_WRITES_PROFILE=<words of a path's name>``: where that path's processor time goes,
    cProfile over ``PROFILED`` requests on the thread's clock, printed before the figures. The
    garbage collector is off while they run: a collection's pause would be charged to whichever
    function happened to allocate when it came (a psycopg list dumper took 9 % of a hand-in's
    time so), and the web workers' collections are tuned apart (``docker/gunicorn.conf.py``)."""
    PROFILED = 40
    chosen = [name for name in paths if wanted.lower() in name.lower()]
    if not chosen:
        raise SystemExit(
            f"BENCH_WRITES_PROFILE: no path named like {wanted!r}; the paths: {list(paths)}"
        )
    for name in chosen:
        request = paths[name]
        _ms(request)  # warm
        profile = cProfile.Profile(time.thread_time)
        gc.collect()
        gc.disable()
        try:
            for _ in range(PROFILED):
                point = transaction.savepoint()
                profile.enable()
                request()
                profile.disable()
                transaction.savepoint_rollback(point)
        finally:
            gc.enable()
        print(f"\n--- {name}: {PROFILED} requests ---")
        stats = pstats.Stats(profile)
        if dump := os.environ.get("BENCH_WRITES_STATS"):  # for pstats or snakeviz
            stats.dump_stats(dump)
        stats.sort_stats("cumulative").print_stats(40)
        # The project's own functions, by what they cost with what they call.
        stats.sort_stats("cumulative").print_stats(
            r"/work/[^.]*/(scoring|tournaments|adjudication|doko|limits|config)/", 60
        )
        stats.sort_stats("tottime").print_stats(25)
        if os.environ.get("BENCH_WRITES_CALLEES"):
            stats.sort_stats("cumulative").print_callees(os.environ["BENCH_WRITES_CALLEES"])


def _sections(paths: dict, wanted: str, spec: str) -> None:
    """``BENCH_WRITES_SECTIONS="module:function ..."`` with ``BENCH_WRITES_PROFILE``: what each
    named function costs a request of the chosen paths on the thread's clock, with what it
    calls, and how often it runs, without a profiler's overhead (each is wrapped where its module
    keeps it, so a caller that imported the name itself still calls the original)."""
    import functools
    import importlib

    spent: dict[str, list[float]] = {}
    undo = []
    for item in spec.split():
        module_name, _, name = item.partition(":")
        owner = importlib.import_module(module_name)
        *path, name = name.split(".")  # "Class.method": wrapped on its class
        for part in path:
            owner = getattr(owner, part)
        original = getattr(owner, name)
        spent[item] = [0.0, 0]

        def timed(*args, __original=original, __item=item, **kwargs):
            start = time.thread_time()
            try:
                return __original(*args, **kwargs)
            finally:
                spent[__item][0] += time.thread_time() - start
                spent[__item][1] += 1

        undo.append((owner, name, vars(owner).get(name)))
        setattr(owner, name, functools.wraps(original)(timed))
    try:
        for name in [name for name in paths if wanted.lower() in name.lower()]:
            for entry in spent.values():
                entry[:] = [0.0, 0]
            _ms(paths[name])  # warm
            for entry in spent.values():
                entry[:] = [0.0, 0]
            calls, whole = 60, 0.0
            for _ in range(calls):
                point = transaction.savepoint()
                start = time.thread_time()
                paths[name]()
                whole += time.thread_time() - start
                transaction.savepoint_rollback(point)
            print(f"\n--- {name}: {whole / calls * 1000:.2f} ms a request ---")
            for item, (seconds, count) in spent.items():
                print(f"{seconds / calls * 1000:8.2f} ms  {count / calls:5.1f}x  {item}")
    finally:
        for owner, name, original in reversed(undo):
            if original is None:  # inherited: the class's own name goes again
                delattr(owner, name)
            else:
                setattr(owner, name, original)


def _measure(world: dict) -> list[Figure]:
    from django.urls import reverse

    sheets, tokens, lines, keeper = (
        world["sheets"],
        world["tokens"],
        world["lines"],
        world["keeper"],
    )
    round_ = world["round"]
    htmx = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "de"}
    phone = Client(**htmx)
    desk = Client(**htmx)
    desk.force_login(world["second"])
    api = Client(HTTP_ACCEPT_LANGUAGE="de")

    def link(number: int, position: int, action: str = "") -> str:
        return reverse("scoring:sheet-link" + action, args=[tokens[number][position]])

    row = {**_hand_fields(lines[1][TYPED]), "number": str(TYPED + 1)}
    # As the entry row sends it: its version, and "plain" (the page around it the sheet alone,
    # nothing ruled on it), which lets the answer be the hand alone (scoring/views/saved.py).
    save = {**row, "version": str(sheets[1].version), "plain": "1"}
    second_url = reverse(
        "scoring:sheet-second-save",
        kwargs={"slug": SLUG, "number": round_.number, "table": 4},
    )
    second_row = {**_hand_fields(lines[4][TYPED]), "number": str(TYPED + 1), "version": "1"}

    def api_url(number: int, action: str = "") -> str:
        name = "api:scoresheet" + (f"-{action}" if action else "")
        return reverse(name, args=[SLUG, round_.number, number])

    def hands_json(count: int) -> list[dict]:
        from scoring.selectors import hand_snapshot

        hands = []
        for line in lines[1][:count]:
            snapshot = hand_snapshot(line)
            snapshot["points"] = {
                str(seat): points for seat, points in enumerate(snapshot["points"], start=1)
            }
            hands.append(snapshot)
        return hands

    def seat_key(number: int, position: int) -> dict:
        return {"HTTP_X_SEAT_KEY": tokens[number][position]}

    put_body = {"version": sheets[1].version, "hands": hands_json(TYPED + 1)}

    def form(client: Client, url: str, data: dict | None = None, **extra):
        """A form posted as the pages post it: htmx and the offline queue send the fields
        URL-encoded (the entry rows have no file), not as the test client's multipart."""
        return client.post(
            url, urlencode(data or {}), content_type="application/x-www-form-urlencoded", **extra
        )

    seat_base = _ms(lambda: form(phone, f"/bench/seat-write/{tokens[1][keeper]}/"))
    user_base = _ms(lambda: form(desk, f"/bench/user-write/{sheets[4].pk}/"))
    seat_paths = {
        "hand save (entry page, htmx)": lambda: form(phone, link(1, keeper, "-save"), save),
        "hand save (offline queue, JSON)": lambda: form(
            phone, link(1, keeper, "-save"), save, HTTP_ACCEPT="application/json"
        ),
        "hand save (API PUT)": lambda: api.put(
            api_url(1), put_body, content_type="application/json", **seat_key(1, keeper)
        ),
        "live check (entry page, htmx)": lambda: form(phone, link(1, keeper, "-check"), save),
        "hand in (entry page, htmx)": lambda: form(
            phone, link(2, keeper, "-submit"), {"version": str(sheets[2].version)}
        ),
        "hand in (API)": lambda: api.post(
            api_url(2, "submit"),
            {"version": sheets[2].version},
            content_type="application/json",
            **seat_key(2, keeper),
        ),
        "confirm (entry page, htmx)": lambda: form(
            phone, link(3, 1, "-confirm"), {"version": str(sheets[3].version)}
        ),
        "confirm (API)": lambda: api.post(
            api_url(3, "confirm"),
            {"version": sheets[3].version},
            content_type="application/json",
            **seat_key(3, 1),
        ),
    }
    desk_paths = {
        "second entry save (desk, htmx)": lambda: form(desk, second_url, second_row),
    }
    if wanted := os.environ.get("BENCH_WRITES_PROFILE", "").strip():
        if spec := os.environ.get("BENCH_WRITES_SECTIONS", "").strip():
            _sections({**seat_paths, **desk_paths}, wanted, spec)
        else:
            _profile({**seat_paths, **desk_paths}, wanted)
    seat_measures = [_ms(request) for request in seat_paths.values()]
    desk_measures = [_ms(request) for request in desk_paths.values()]
    seat_pairs = alternate(seat_base, seat_measures, pairs=PAIRS)
    desk_pairs = alternate(user_base, desk_measures, pairs=PAIRS)
    seat_baseline = "seat link: sheet read, 1 row written"
    desk_baseline = "session: sheet read, 1 row written"
    note = " [≤ 3x]"
    return [
        *(
            Figure.paired(f"{name}{note}", pairs, seat_baseline, "ms")
            for name, pairs in zip(seat_paths, seat_pairs, strict=True)
        ),
        *(
            Figure.paired(f"{name}{note}", pairs, desk_baseline, "ms")
            for name, pairs in zip(desk_paths, desk_pairs, strict=True)
        ),
    ]
