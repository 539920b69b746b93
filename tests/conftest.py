import hypothesis
import pytest
from django.utils import translation

# Hypothesis times the machine as well as the code: on a slow or shared one (a hypervisor taking a
# fifth of the time, stalls of a second or two) its health check that inputs come too slowly, and
# its deadline per example, fail property tests whose properties hold. Neither is what they check.
hypothesis.settings.register_profile(
    "doko", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow]
)
hypothesis.settings.load_profile("doko")

# The permission matrix's checks assert in tests/permissions.py: pytest explains their failures.
pytest.register_assert_rewrite("tests.permissions")


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing():
    """Test users' passwords hashed with a fast hasher: the production hasher (PBKDF2, a million
    rounds) takes a quarter of a second per user, which the tests would spend thousands of
    times. Logging in works the same."""
    from django.test.utils import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def english_messages():
    """Services' messages are read in English unless a test asks for German; pages still
    choose the language per request (German by default)."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def unhashed_static_files(settings):
    """Pages name static files without collectstatic's manifest, which only a deployment builds
    (tests/test_static.py checks that it does)."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def empty_cache():
    """Each test starts with an empty cache: the database is rolled back after every test,
    and cached standings of a tournament that no longer exists must not be served to the next
    test's tournament of the same id. So does what each process keeps in memory."""
    from django.core.cache import cache

    from tournaments.caching import memory_clear

    cache.clear()
    memory_clear()
    yield
    cache.clear()
    memory_clear()


@pytest.fixture(autouse=True)
def steady_clock(monkeypatch):
    """The rate limits' clock (limits/windows.py) held one second into every window (a minute,
    a quarter of an hour, an hour), so that no test straddles the end of one; call it with
    seconds to move it on. Every test gets it: one that counts to a limit on a slow machine
    (a minute for a handful of requests) would otherwise find its count gone with the window."""
    import types

    now = [3600 * 500_000 + 1.0]
    monkeypatch.setattr("limits.windows.time", types.SimpleNamespace(time=lambda: now[0]))

    def move(seconds: float) -> None:
        now[0] += seconds

    return move


@pytest.fixture
def staff():
    """An organiser, an adjudicator, his deputy and a panel of three, as users (shared by the
    adjudication and backup tests)."""
    from tests import factories

    return {
        "organiser": factories.user(username="organiser"),
        "adjudicator": factories.user(username="adjudicator"),
        "deputy": factories.user(username="deputy"),
        "panel": [factories.user(username=f"panel{n}") for n in (1, 2, 3)],
        "keeper": factories.user(username="desk"),
    }


@pytest.fixture
def media(settings, tmp_path):
    """Uploaded and generated files (``default_storage``: ``MEDIA_ROOT``) in a directory of the
    test's own; returns it."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def sheet():
    """The scoresheet of a table of four whose round is running (a closer conftest may have
    its own)."""
    from scoring.models import Scoresheet
    from tests import factories
    from tournaments import services as tournament_services

    tournament = factories.tournament(players=4)
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    return Scoresheet.objects.get(table__round=round_)


@pytest.fixture
def played():
    """A tournament of 12 players whose first round is complete and confirmed, with its
    organiser (a closer module may have its own)."""
    from doko.sample_sheets import full_match
    from scoring.models import Scoresheet
    from tests import factories
    from tournaments import services as tournament_services

    organiser = factories.user(username="orga")
    tournament = factories.tournament(players=12, organiser=organiser, name="Kreuzpokal")
    round_ = factories.seated_round(tournament)
    tournament_services.round_start(round=round_)
    for sheet in Scoresheet.objects.filter(table__round=round_):
        factories.sheet_confirmed(sheet, full_match())
    return tournament, round_, organiser


@pytest.fixture(scope="module")
def ctx(django_db_setup, django_db_blocker, tmp_path_factory):
    """The world the permission matrix is checked in (tests/permissions.py), built outside the
    tests' transactions once per test module that asks for it, and deleted after that module."""
    from django.contrib.auth import get_user_model
    from django.test import override_settings

    from rankings.models import RankingList
    from tests.permissions import build
    from tournaments.models import Player, Tournament

    # Its files (a printout, a signed sheet's scan) in a directory of its own; changed through
    # override_settings, so that the storage API reads it again (its cached location).
    media = tmp_path_factory.mktemp("matrix-media")
    with django_db_blocker.unblock(), override_settings(MEDIA_ROOT=media):
        try:
            yield build()
        finally:
            # teams: line-ups and group places protect the entries and teams they name.
            from teams.models import Competition, GroupTeam, LineUp

            LineUp.objects.all().delete()
            GroupTeam.objects.all().delete()
            Competition.objects.all().delete()
            Tournament.objects.all().delete()
            RankingList.objects.filter(slug="matrix-ranking").delete()
            Player.objects.all().delete()
            get_user_model().objects.filter(username__startswith="matrix-").delete()


@pytest.fixture(scope="session")
def one_request_at_a_time(live_server):
    """The session's live server, answering one request at a time (``tests.live.
    OneRequestAtATime``): the browser tests and the HTTP replays of tests/security/ share it."""
    from tests.live import OneRequestAtATime

    server = live_server.thread.httpd
    if not isinstance(server.get_app(), OneRequestAtATime):
        server.set_app(OneRequestAtATime(server.get_app()))
    return live_server


@pytest.fixture
def visitor(one_request_at_a_time):
    """Make a client of the running site (``tests.live.Visitor``): each call another device,
    with cookies of its own, or none (``cookies=False``)."""
    from tests.live import Visitor

    made = []

    def make(**options):
        made.append(Visitor(one_request_at_a_time.url, **options))
        return made[-1]

    yield make
    for client in made:
        client.session.close()


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    """The figures the browser tests (tests/browser/) recorded with ``record_property``, also
    without ``-s``. Here, not in their own conftest.py: under pytest-xdist only the controlling
    process prints, and it loads this conftest.py but not theirs."""
    lines = [
        f"{report.nodeid.rsplit('::', 1)[-1]}: "
        + ", ".join(f"{name} {value}" for name, value in report.user_properties)
        for report in terminalreporter.stats.get("passed", [])
        if report.when == "call" and report.user_properties and "/browser/" in report.nodeid
    ]
    if lines:
        terminalreporter.write_sep("-", "browser test figures")
        for line in lines:
            terminalreporter.write_line(line)
