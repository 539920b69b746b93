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
