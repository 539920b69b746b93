import pytest


@pytest.fixture
def kreuzpokal(django_capture_on_commit_callbacks):
    """Twelve players, one round: two tables confirmed, one only submitted."""
    # Imported here: a conftest is read before Django's apps are ready.
    from tests import factories
    from tests.tournaments.helpers import play
    from tournaments.models import Tournament

    organiser = factories.user(username="orga")
    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=12, organiser=organiser, name="Kreuzpokal")
        play(tournament, submit_only_last_table=True)
    return Tournament.objects.get(pk=tournament.pk), organiser


@pytest.fixture
def substitute(django_capture_on_commit_callbacks):
    """Eight players after a confirmed round, some of them below 0, and a substitute (start
    number 9, DDV number 4711) who joined after it and has played no round."""
    from tests import factories
    from tests.tournaments.helpers import play
    from tournaments import services
    from tournaments.models import Tournament

    with django_capture_on_commit_callbacks(execute=True):
        tournament = factories.tournament(players=8)
        play(tournament)
        services.entry_create(
            tournament=tournament,
            player=factories.player(first_name="Ersatz", last_name="Spielerin", ddv_number="4711"),
        )
        services.standings_rebuild(tournament_id=tournament.pk)
    return Tournament.objects.get(pk=tournament.pk)
