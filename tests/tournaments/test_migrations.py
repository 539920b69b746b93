"""The migration that gives the ranking lists maintainers admits what counted before, with its
results and a line in the log, so that the lists read the same the day after."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from rankings.models import RankingAdmission, RankingList, RankingLogEntry
from rankings.services.lists import ranking_rebuild
from tests import factories
from tests.migrating import migrate, migrate_to_latest
from tests.tournaments.helpers import play
from tournaments.models import Tournament

BEFORE = [("tournaments", "0020_standings_wanted")]
AFTER = [("tournaments", "0021_ranking_governance")]


@pytest.mark.django_db(transaction=True)
def test_what_counted_before_is_admitted_by_nobody_with_its_results():
    today = datetime.date.today()
    counted = factories.tournament(players=4, planned_rounds=1, starts_on=today)
    play(counted)
    hidden = factories.tournament(players=4, planned_rounds=1, starts_on=today)
    play(hidden)
    running = factories.tournament(players=4, planned_rounds=2, starts_on=today)
    play(running)
    assert Tournament.objects.get(pk=counted.pk).status == "finished"
    try:
        apps = migrate(BEFORE)
        OldTournament = apps.get_model("tournaments", "Tournament")
        OldTournament.objects.filter(pk=hidden.pk).update(standings_public=False)
        OldRankingList = apps.get_model("tournaments", "RankingList")
        OldRankingList.objects.create(name="Clubliste", slug="club", months=6, min_rounds=1)
        migrate(AFTER)
    finally:
        migrate_to_latest()

    # "club", and the default list of migration 0007 unless a transactional test before this
    # one emptied the tables.
    lists = set(RankingList.objects.values_list("slug", flat=True))
    assert "club" in lists
    admissions = RankingAdmission.objects.all()
    assert {(a.ranking_list.slug, a.tournament_id) for a in admissions} == {
        (slug, counted.pk) for slug in lists
    }
    admission = admissions.get(ranking_list__slug="club")
    assert admission.status == "admitted"
    assert admission.decided_by is None
    assert admission.reason.startswith("Admitted when the ranking lists got maintainers")
    assert sorted(player for player, *_ in admission.snapshot) == sorted(
        counted.entries.values_list("player_id", flat=True)
    )
    assert all(
        rounds == 1 and status == "active" for _p, rounds, _pts, status in admission.snapshot
    )
    assert RankingLogEntry.objects.filter(
        kind="admitted", tournament=counted, by__isnull=True
    ).count() == len(lists)
    assert not RankingList.objects.get(slug="club").maintainers.exists()
    # The list counts it as before.
    club = ranking_rebuild(ranking_list=RankingList.objects.get(slug="club"))
    assert {player for _r, player, *_ in club.data} == set(
        counted.entries.values_list("player_id", flat=True)
    )


CLAIMS_BEFORE = [("tournaments", "0027_role_history")]
CLAIMS_AFTER = [("tournaments", "0028_i44_registration_claims")]


@pytest.mark.django_db(transaction=True)
def test_registrations_bound_before_claims_count_as_confirmed_and_old_twins_stay():
    """Issue 44: a registration bound to the person of its number under the old rules stays
    bound, confirmed by nobody; the same person registered twice in spellings the old rule
    told apart keeps both rows, and only new registrations are refused."""
    from registration.models import Registration
    from registration.services.claims import registration_claim_confirm
    from registration.services.registrations import registration_submit
    from tournaments.models import Player, player_search_key

    organiser = factories.user()
    tournament = factories.tournament(organiser=organiser)
    factories.registration_open(tournament)
    her = factories.player(first_name="Jürgen", last_name="Müller", ddv_number="4711")
    names = {"first_name": "Jürgen", "last_name": "Müller", "email": "jm@example.org"}
    bound = registration_submit(
        tournament=tournament, **names, ddv_number="4711", confirm_by_mail=False
    )
    registration_claim_confirm(entry=bound.entry, by=organiser)
    other = registration_submit(
        tournament=tournament,
        first_name="Anna",
        last_name="Andere",
        email="jm@example.org",
        confirm_by_mail=False,
    ).registration
    try:
        apps = migrate(CLAIMS_BEFORE)
        # The old rule told "Jurgen MUELLER" from "Jürgen Müller" at the same address.
        apps.get_model("tournaments", "Registration").objects.filter(pk=other.pk).update(
            first_name="Jurgen",
            last_name="MUELLER",
            search_key=player_search_key("Jurgen", "MUELLER"),
        )
        migrate(CLAIMS_AFTER)
    finally:
        migrate_to_latest()

    confirmed = Registration.objects.get(pk=bound.registration.pk)
    assert confirmed.claim == Registration.Claim.CONFIRMED
    assert confirmed.claimed_person_id == her.pk
    assert confirmed.claim_decided_by is None
    assert confirmed.entry.player_id == her.pk
    twin = Registration.objects.get(pk=other.pk)
    assert twin.claim == Registration.Claim.NONE
    assert twin.person_key != confirmed.person_key
    with pytest.raises(ValidationError):
        registration_submit(
            tournament=tournament,
            first_name="Juergen",
            last_name="Mueller",
            email="JM@example.org",
            confirm_by_mail=False,
        )
    assert Player.objects.filter(pk=her.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_going_back_is_refused_while_two_registrations_name_one_number():
    from registration.services.registrations import registration_submit

    tournament = factories.tournament()
    factories.registration_open(tournament)
    for n in (1, 2):
        registration_submit(
            tournament=tournament,
            first_name="Spieler",
            last_name=f"Nummer{n}",
            email=f"s{n}@example.org",
            ddv_number="4711",
            confirm_by_mail=False,
        )
    try:
        with pytest.raises(RuntimeError, match="cancel one of each first"):
            migrate(CLAIMS_BEFORE)
    finally:
        migrate_to_latest()
    assert tournament.registrations.count() == 2
