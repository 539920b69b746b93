"""A property test of the whole JSON API (the `--postgres` pass): Schemathesis generates requests
from the OpenAPI schema at /api/schema/ and sends them to the Django application in-process; no
response may be a server error, and every answer must match its schema.

A tournament is played first (rounds, tables, seats, scoresheets with hands, complaints,
an appeal, a sanction, the catalogue of offences, staff), so that the generated requests reach
real objects: half of them name its slug, round, table, start number and ids, the other half
whatever Schemathesis makes up. Each operation is tried anonymously, as the tournament's
organiser (an API token) and, for the scoresheet and its links, with a seat's private key. As the
organiser, valid requests are also sent with hostile values, each in turn at one place of the
request (``_hostile_case``: a value or a key at any depth, every field at once, or a query
parameter): a lone surrogate, NUL, Unicode digits, numbers beyond 64 bits, long text, the wrong
type, which Schemathesis would not make up. They must be refused, not fail. Each
request runs in a savepoint that is rolled back, so that what one request writes (a round
closed, an offence deleted) cannot change what the next one finds.
"""

import contextlib
import copy
import datetime
import json
import logging
import re
import time
import traceback
from dataclasses import dataclass, field

import pytest
import schemathesis
from django.conf import settings as django_settings
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.signals import got_request_exception, request_finished, request_started
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from adjudication import services as adjudication_services
from adjudication.models import Decision, Offence, Sanction
from config.wsgi import application
from doko.rules.penalty import Severity
from doko.rules.procedure import WrittenLine
from doko.sample_sheets import full_match
from rankings.models import RankingList
from rankings.services.lists import ranking_list_save, ranking_rebuild
from scoring import services as scoring_services
from scoring.models import Scoresheet
from teams import services as team_services
from teams.models import TeamMember
from tests import factories, scans
from tests.teams.factories import league
from tests.tournaments.helpers import play
from tournaments import services as tournament_services
from tournaments.caching import memory_clear
from tournaments.models import TournamentRole
from tournaments.policies import ORGANISERS_GROUP

pytestmark = [pytest.mark.services, pytest.mark.django_db]

MINIMUM_REQUESTS = 1000
# Examples per operation and identity; Hypothesis stops earlier where an operation has fewer
# distinct requests to offer (a GET without parameters has one).
EXAMPLES = {
    "anonymous": 8,
    "organiser": 10,
    "organiser-negative": 4,
    "organiser-hostile": 3,
    "seat": 7,
}
# What the schema allows but no field can use, put into one place of a valid request (a value or
# a key at any depth, every field at once, or a query parameter), each in turn: digits only to
# Python ("²"; "٣", which int() reads as 3), a lone surrogate, NUL, numbers beyond 64 bits, very
# long text, the wrong JSON type.
HOSTILE_TEXT = ["²", "٣", "a\x00b", "1" + "0" * 30, "7" * 5000]
HOSTILE_VALUES = [*HOSTILE_TEXT, "\ud800", 10**30, -(10**30), [1], {"1": 1}, True, None]
HOSTILE_KEYS = ["²", "٣", "\ud800", "\x00", "9" * 30]
UNLIMITED = "1000000/min"
# Not status_code_conformance: the schema documents each operation's success only, not its
# 400, 401, 403, 404 and 409 answers (their bodies are the same error object everywhere).
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]
MATCH = full_match()
Role = TournamentRole.Role


@dataclass
class World:
    """The seeded objects the path parameters point at, and the credentials."""

    slugs: list[str]
    rounds: list[int]
    tables: list[int]
    start_numbers: list[int]
    player_ids: list[int]
    ranking_slugs: list[str]
    decision_ids: list[int]
    appeal_ids: list[int]
    sanction_ids: list[int]
    offence_ids: list[int]
    role_ids: list[int]
    organiser_token: str
    seat_keys: list[str]
    usernames: list[str]
    # teams: a league organised by the organiser, with match day 1 drawn for its four teams.
    competition_slugs: list[str]
    team_ids: list[int]
    member_ids: list[int]


@dataclass
class Record:
    """What was sent and what came back, for every request of the run."""

    sent: int = 0
    server_errors: list[str] = field(default_factory=list)
    nonconforming: dict[str, list[str]] = field(default_factory=dict)
    statuses: dict[int, int] = field(default_factory=dict)


def _seed() -> World:
    """A tournament of twelve with its staff: round 1 finished, round 2 running (table 1
    confirmed, with the photo of its signed sheet; table 2 handed in; table 3 with complaints),
    round 3 drawn; and an empty one."""
    tournament, organiser, adjudicator, panel = _tournament_and_staff()
    round_, sheets, table_3 = _round_two_running(tournament)
    appeal, sanction_appeal, offences = _complaints_and_sanctions(
        tournament, round_, table_3, organiser=organiser, adjudicator=adjudicator, panel=panel
    )
    factories.seated_round(tournament, publish=False)
    other, ranking = _another_tournament_and_a_ranking_list(organiser)
    seats = [seat for s in sheets for seat in s.table.seats.order_by("position")]
    competition = _league_with_a_match_day(organiser)
    return World(
        slugs=[tournament.slug, other.slug],
        rounds=[1, 2, 3],
        tables=[1, 2, 3],
        start_numbers=list(range(1, 14)),
        player_ids=[entry.player_id for entry in tournament.entries.all()],
        ranking_slugs=[ranking.slug, RankingList.objects.first().slug],
        decision_ids=list(Decision.objects.values_list("pk", flat=True)),
        appeal_ids=[appeal.pk, sanction_appeal.pk],
        sanction_ids=list(
            Sanction.objects.filter(entry__tournament=tournament).values_list("pk", flat=True)
        ),
        offence_ids=[offence.pk for offence in offences][:4]
        + list(Offence.objects.filter(tournament=other).values_list("pk", flat=True)),
        role_ids=list(
            TournamentRole.objects.filter(tournament=tournament).values_list("pk", flat=True)
        ),
        organiser_token=Token.objects.get_or_create(user=organiser)[0].key,
        seat_keys=[seat.token for seat in seats],
        usernames=[organiser.username, adjudicator.username],
        competition_slugs=[competition.slug],
        team_ids=list(competition.teams.values_list("pk", flat=True)),
        member_ids=list(
            TeamMember.objects.filter(competition=competition).values_list("player_id", flat=True)
        ),
    )


def _tournament_and_staff() -> tuple:
    """The tournament of twelve, its organiser (in the Organisers group), its adjudicator and a
    panel of three."""
    organiser = factories.user(username="fuzz-organiser")
    # In the Organisers group: he creates tournaments too (POST /api/v1/tournaments/).
    organiser.groups.add(Group.objects.get(name=ORGANISERS_GROUP))
    adjudicator = factories.user(username="fuzz-adjudicator")
    panel = [factories.user(username=f"fuzz-panel{n}") for n in (1, 2, 3)]
    tournament = factories.tournament(players=12, organiser=organiser, name="Fuzzpokal")
    grant = factories.role_grant
    grant(tournament=tournament, user=adjudicator, role=Role.ADJUDICATOR)
    for member in panel:
        grant(tournament=tournament, user=member, role=Role.PANEL)
    return tournament, organiser, adjudicator, panel


def _round_two_running(tournament) -> tuple:
    """Round 1 played; round 2 running: table 1 confirmed with the photo of its signed sheet,
    table 2 handed in, table 3 six hands in. The round, its sheets by table and table 3's as
    it is now."""
    play(tournament, rounds=1)
    round_ = tournament_services.round_start(round=factories.seated_round(tournament))
    sheets = list(Scoresheet.objects.filter(table__round=round_).order_by("table__number"))
    factories.sheet_confirmed(sheets[0], MATCH)
    # The photo of its signed paper sheet, which GET …/scoresheet/scan answers.
    scoring_services.scoresheet_scan_attach(
        scoresheet=sheets[0], upload=scans.upload(scans.jpeg()), by=factories.keeper(sheets[0])
    )
    keeper = factories.keeper(sheets[1])
    sheet = scoring_services.scoresheet_hands_replace(
        scoresheet=sheets[1], hands=MATCH, version=sheets[1].version, by=keeper
    )
    scoring_services.scoresheet_submit(scoresheet=sheet, version=sheet.version, by=keeper)

    keeper = factories.keeper(sheets[2])
    table_3 = scoring_services.scoresheet_hands_replace(
        scoresheet=sheets[2], hands=MATCH[:6], version=sheets[2].version, by=keeper
    )
    return round_, sheets, table_3


def _complaints_and_sanctions(tournament, round_, sheet, *, organiser, adjudicator, panel) -> tuple:
    """Table 3's complaints: one decision initialled, one initialled and appealed, one open;
    the default offences; a panel's deduction and two bound warnings the adjudicator gave alone
    (TSR 9.6.3), the second appealed. The appeal, the sanction's appeal and the offences."""
    decisions = []
    for hand, offender in ((3, 2), (5, 1), (7, 4)):
        decision = adjudication_services.complaint_record(
            scoresheet=sheet,
            hand_number=hand,
            offender=offender,
            description="Trumped a club lead holding a club",
            by=adjudicator,
        )
        decisions.append(decision)
    ruled = adjudication_services.decision_rule(
        decision=decisions[0], ruling=adjudication_services.Ruling(Severity.MINOR), by=adjudicator
    )
    adjudication_services.decision_initial(decision=ruled, by=adjudicator)
    ruled = adjudication_services.decision_rule(
        decision=decisions[1],
        # Hand 5 is written: the stopped game goes in before it (TSR 9.4.3).
        ruling=adjudication_services.Ruling(Severity.MAJOR, written_line=WrittenLine.NEXT),
        by=adjudicator,
    )
    ruled = adjudication_services.decision_initial(decision=ruled, by=adjudicator)
    appeal = adjudication_services.appeal_lodge(
        decision=ruled, appellant=ruled.offender, grounds="I had no club", by=adjudicator
    )
    offences = adjudication_services.offences_default(tournament=tournament, by=organiser)
    adjudication_services.sanction_impose(
        entry=sheet.table.seats.get(position=3).entry,
        round=round_,
        kind=Sanction.Kind.DEDUCTION,
        points=6,
        reasons="Insulted the table after a lost solo.",
        members=panel,
        by=panel[0],
    )
    # Bound decisions the adjudicator gave alone (TSR 9.6.3): one to appeal, one appealed.
    bound = next(offence for offence in offences if offence.bound)
    for position in (1, 2):
        given = adjudication_services.sanction_impose(
            entry=sheet.table.seats.get(position=position).entry,
            round=round_,
            kind=Sanction.Kind.WARNING,
            offence=bound,
            reasons="Counted the trumps aloud.",
            by=adjudicator,
        )
    sanction_appeal = adjudication_services.appeal_lodge(sanction=given, by=adjudicator)
    return appeal, sanction_appeal, offences


def _another_tournament_and_a_ranking_list(organiser) -> tuple:
    """Another club's tournament, and a ranking list the organiser keeps: its maintainers and
    admissions answer him (his own tournament he may not admit)."""
    other = factories.tournament(players=5, organiser=factories.user(), name="Fremdturnier")
    ranking = ranking_list_save(name="Vereinsrangliste", slug="verein")
    ranking.maintainers.add(organiser)
    ranking_rebuild(ranking_list=ranking)
    return other, ranking


def _league_with_a_match_day(organiser):
    """The organiser's league of four teams of five, all in one group on match day 1."""
    competition = league(teams=4, members=5, by=organiser, name="Fuzzliga")
    team_services.match_day_create(
        competition=competition,
        starts_on=datetime.date(2026, 12, 5),
        by=organiser,
        groups=[list(competition.teams.all())],
    )
    return competition


def _real_path_parameters(path: str, world: World) -> st.SearchStrategy[dict]:
    """Path parameters naming seeded objects, for an operation's path template."""
    names = re.findall(r"{(\w+)}", path)
    id_choices = world.player_ids
    if "/decisions/" in path:
        id_choices = world.decision_ids
    elif "/appeals/" in path:
        id_choices = world.appeal_ids
    elif "/sanctions/" in path:
        id_choices = world.sanction_ids
    elif "/offences/" in path:
        id_choices = world.offence_ids
    elif "/roles/" in path:
        id_choices = world.role_ids
    slugs = world.slugs
    if path.startswith("/api/v1/rankings/"):
        slugs = world.ranking_slugs
    elif path.startswith("/api/v1/competitions/"):
        slugs = world.competition_slugs
    choices = {
        "slug": slugs,
        "number": world.rounds,
        "table": world.tables,
        "start_number": world.start_numbers,
        "id": id_choices,
        "tournament": world.slugs,
        "ranking": world.ranking_slugs,
        "username": world.usernames,
        "team_id": world.team_ids,
        "player_id": world.member_ids,
    }
    return st.fixed_dictionaries({name: st.sampled_from(choices[name]) for name in names})


def _place(draw, value, path: tuple = ()) -> tuple[str, tuple]:
    """A place in a JSON body: ("value", path) or ("key", path of the object), at any depth."""
    if isinstance(value, dict) and value:
        key = draw(st.sampled_from(sorted(value, key=str)))
        where = draw(st.sampled_from(["key", "value", "inside"]))
        if where == "key":
            return "key", path
        if where == "inside" and isinstance(value[key], dict | list) and value[key]:
            return _place(draw, value[key], (*path, key))
        return "value", (*path, key)
    if isinstance(value, list) and value:
        index = draw(st.integers(0, len(value) - 1))
        return _place(draw, value[index], (*path, index))
    return "value", path


def _with(body, place: tuple[str, tuple], hostile):
    """``body`` with ``place`` made ``hostile``: a value, an object's first key, or every field
    of the body at once (``("every", ())``)."""
    kind, path = place
    if kind == "every":
        return dict.fromkeys(body, hostile)
    if kind == "key":
        return _changed(body, path, lambda value: _rekeyed(value, hostile))
    return _changed(body, path, lambda value: hostile)


def _changed(value, path: tuple, change):
    """``value`` (objects and lists) with what is at ``path`` changed, the rest as it was."""
    if not path:
        return change(value)
    changed = copy.copy(value)
    changed[path[0]] = _changed(value[path[0]], path[1:], change)
    return changed


def _rekeyed(value: dict, key) -> dict:
    """``value`` with its first key replaced by ``key``."""
    first = next(iter(value))
    return {key if name == first else name: item for name, item in value.items()}


@st.composite
def _hostile_case(draw, operation):
    """A valid request of the operation and the place where hostile values go in turn: in its
    JSON body (one place, or every field at once), else in one query parameter."""
    case = draw(operation.as_strategy(generation_mode=schemathesis.GenerationMode.POSITIVE))
    if case.media_type == "application/json" and isinstance(case.body, dict) and case.body:
        if draw(st.booleans()):
            return case, ("every", ())
        return case, _place(draw, case.body)
    if case.query:
        return case, ("query", (draw(st.sampled_from(sorted(case.query))),))
    return case, None


def _hostile_variants(case, place):
    """The case once for each hostile value at ``place``; a body as the bytes a client sends
    (a lone surrogate escaped: Schemathesis cannot encode one to check the body itself)."""
    if place is None:
        return
    kind, path = place
    if kind == "query":
        query = case.query
        for value in HOSTILE_TEXT:
            case.query = {**query, path[0]: value}
            yield case
        return
    body = case.body
    for value in HOSTILE_KEYS if kind == "key" else HOSTILE_VALUES:
        case.body = json.dumps(_with(body, place, value)).encode()
        yield case


def _describe(case, response, identity: str) -> str:
    """One request: method, path, status, identity, and what it sent."""
    sent = {
        "path_parameters": case.path_parameters,
        "query": case.query,
        "headers": dict(case.headers or {}),
        "body": case.body if not isinstance(case.body, bytes) else repr(case.body),
    }
    sent = {key: value for key, value in sent.items() if value not in (None, {})}
    try:
        text = json.dumps(sent, default=repr, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(sent)
    return (
        f"{case.method.upper()} {case.formatted_path} -> {response.status_code} "
        f"(as {identity}) sent {text[:2000]}"
    )


@contextlib.contextmanager
def _connection_kept_open():
    """Django closes a connection at the start and end of every request (``CONN_MAX_AGE``); the
    test's connection holds the test transaction, so it must stay open, as Django's test client
    keeps it."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@contextlib.contextmanager
def _exceptions_caught(into: list[str]):
    """The traceback of every exception a view raised (the client only sees the 500)."""

    def caught(sender, request=None, **kwargs):
        into.append(traceback.format_exc())

    got_request_exception.connect(caught)
    try:
        yield
    finally:
        got_request_exception.disconnect(caught)


def _run(operation, strategy, *, identity, headers, examples, record, tracebacks, hostile=False):
    """Send ``examples`` generated requests of one operation, each in a rolled-back savepoint
    (``hostile``: each with every hostile value in turn)."""

    @hypothesis_settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(data=strategy)
    def send(data):
        case, real = data
        case, place = case if hostile else (case, None)
        if real is not None:
            case.path_parameters = {**(case.path_parameters or {}), **real}
        for variant in _hostile_variants(case, place) if hostile else [case]:
            send_one(variant)

    def send_one(case):
        del tracebacks[:]
        with transaction.atomic():
            response = case.call(headers=headers)
            transaction.set_rollback(True)
        cache.clear()  # cached standings and rate counts of the rolled-back request
        memory_clear()
        record.sent += 1
        record.statuses[response.status_code] = record.statuses.get(response.status_code, 0) + 1
        try:
            case.validate_response(
                response,
                checks=CHECKS,
                headers=headers,
            )
        except FailureGroup as failures:
            line = _describe(case, response, identity)
            if response.status_code >= 500:
                record.server_errors.append(line + "\n" + "".join(tracebacks[-1:]))
            else:
                titles = "; ".join(sorted({failure.title for failure in failures.exceptions}))
                key = f"{operation.label} -> {response.status_code}: {titles}"
                record.nonconforming.setdefault(key, []).append(f"{line}\n{failures}")

    # An operation without parameters or body has no negative cases to generate.
    with contextlib.suppress(Unsatisfiable):
        send()


@pytest.fixture
def unthrottled(settings):
    """No rate limit is reached in a thousand requests (every *_RATE_* setting, including ones
    added after this test)."""
    for name in dir(django_settings):
        if re.fullmatch(r"[A-Z_]*RATE[A-Z_]*", name) and isinstance(
            getattr(django_settings, name), str
        ):
            setattr(settings, name, UNLIMITED)
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "localhost"]


@pytest.fixture
def quiet_client_errors():
    """Django logs every 4xx as a warning; a thousand of them would bury a real error."""
    logger = logging.getLogger("django.request")
    level = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(level)


def test_generated_requests_get_no_server_error_and_match_the_schema(
    unthrottled, quiet_client_errors, django_capture_on_commit_callbacks, media
):
    with django_capture_on_commit_callbacks(execute=True):
        world = _seed()
    record = Record()
    tracebacks: list[str] = []
    identities = {
        "anonymous": {},
        "organiser": {"Authorization": f"Token {world.organiser_token}"},
    }
    started = time.monotonic()
    with _connection_kept_open(), _exceptions_caught(tracebacks):
        schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
        for result in schema.get_all_operations():
            operation = result.ok()
            real = _real_path_parameters(operation.path, world)
            runs = [
                ("anonymous", identities["anonymous"], "positive"),
                ("organiser", identities["organiser"], "positive"),
                ("organiser-negative", identities["organiser"], "negative"),
                ("organiser-hostile", identities["organiser"], "hostile"),
            ]
            # The seat keys where a table is named: the sheet takes them, its links refuse them.
            if "/scoresheet" in operation.path or operation.path.endswith("/links"):
                runs += [
                    ("seat", {"X-Seat-Key": key}, "positive")
                    for key in (world.seat_keys[3], world.seat_keys[0], world.seat_keys[11])
                ]
            for identity, headers, mode in runs:
                if mode == "hostile":  # the seeded objects, for the request to reach them
                    strategy = st.tuples(_hostile_case(operation), real)
                else:
                    generation_mode = (
                        schemathesis.GenerationMode.NEGATIVE
                        if mode == "negative"
                        else schemathesis.GenerationMode.POSITIVE
                    )
                    strategy = st.tuples(
                        operation.as_strategy(generation_mode=generation_mode),
                        st.one_of(st.none(), real),
                    )
                _run(
                    operation,
                    strategy,
                    identity=identity,
                    headers=headers,
                    examples=EXAMPLES[identity],
                    hostile=mode == "hostile",
                    record=record,
                    tracebacks=tracebacks,
                )
    elapsed = time.monotonic() - started
    print(
        f"{record.sent} requests in {elapsed:.0f} s; statuses: "
        + ", ".join(f"{status}: {count}" for status, count in sorted(record.statuses.items()))
    )

    assert not record.server_errors, (
        f"{len(record.server_errors)} server errors in {record.sent} requests:\n\n"
        + "\n\n".join(record.server_errors)
    )
    assert not record.nonconforming, (
        "Responses that do not match the schema, by operation, status and check:\n"
        + "\n".join(f"{len(lines)} x {key}" for key, lines in sorted(record.nonconforming.items()))
        + "\n\nThe first of each:\n\n"
        + "\n\n".join(lines[0] for lines in record.nonconforming.values())
    )
    assert record.sent >= MINIMUM_REQUESTS, record.statuses
