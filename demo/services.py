"""Demo tournaments, built through the same services the pages and the API use.

- a finished ranking tournament: 32 players, 3 rounds, played on paper: every sheet typed in
  at the desk and confirmed from the players' signatures;
- a German championship in progress: 148 players, round 4 of 8 running, sheets in every state,
  and the adjudicator's work of the round: penalty points initialled, a ruling waiting for
  initials, a complaint just noted, an appeal before the arbitration panel, a warning;
- a club tournament in ten days with its online registration open: 24 places taken, two
  players on the waiting list;
- a league of 8 teams with one match day played and the next running, and a team
  championship with its group stage played and its knock-out round drawn (``demo.team_play``).

The same seed gives the same players, seating and scoresheets; times are placed around ``now``
so that the running round's clock is current.
"""

import datetime
import random
import secrets
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission, User
from django.db import transaction
from django.utils import timezone, translation
from django.utils.text import slugify

from adjudication import services as adjudication
from adjudication.models import Sanction
from demo import team_play
from doko.rules.penalty import Severity
from doko.simulation import simulate_match
from rankings.models import RankingList
from rankings.services.admissions import ranking_admission_admit, ranking_admission_request
from rankings.services.lists import ranking_list_save
from registration.services import claims, registrations
from scoring import services as scoring_services
from scoring.models import Scoresheet
from scoring.services import Actor
from teams.models import Competition
from tournaments import policies, services
from tournaments.models import (
    Player,
    Round,
    SeatingMethod,
    SheetKeeping,
    Tournament,
    TournamentRole,
)

FIRST_NAMES = [
    "Anna",
    "Bernd",
    "Claudia",
    "Dieter",
    "Elke",
    "Frank",
    "Gabi",
    "Hans",
    "Ingrid",
    "Jürgen",
    "Karin",
    "Lothar",
    "Monika",
    "Norbert",
    "Olga",
    "Peter",
    "Renate",
    "Stefan",
    "Tanja",
    "Uwe",
    "Vera",
    "Walter",
    "Yvonne",
    "Heike",
    "Klaus",
    "Sabine",
    "Thomas",
    "Ute",
    "Jörg",
    "Birgit",
    "Michael",
    "Petra",
    "Andreas",
    "Susanne",
    "Matthias",
    "Kerstin",
    "Ralf",
    "Silke",
    "Holger",
    "Martina",
    "Dirk",
    "Annette",
    "Sven",
    "Marion",
    "Torsten",
    "Gudrun",
    "Björn",
    "Jutta",
    "Günter",
    "Bärbel",
]
LAST_NAMES = [
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Schulz",
    "Hoffmann",
    "Schäfer",
    "Koch",
    "Bauer",
    "Richter",
    "Klein",
    "Wolf",
    "Schröder",
    "Neumann",
    "Schwarz",
    "Zimmermann",
    "Braun",
    "Krüger",
    "Hofmann",
    "Hartmann",
    "Lange",
    "Schmitt",
    "Werner",
    "Krause",
    "Meier",
    "Lehmann",
    "Köhler",
    "Herrmann",
    "König",
    "Walter",
    "Mayer",
    "Huber",
    "Kaiser",
    "Fuchs",
    "Peters",
    "Lang",
    "Scholz",
    "Möller",
    "Weiß",
    "Jung",
    "Hahn",
    "Vogel",
    "Friedrich",
    "Keller",
    "Günther",
    "Frank",
    "Berger",
    "Roth",
    "Beck",
    "Lorenz",
    "Baumann",
    "Franke",
    "Albrecht",
    "Ludwig",
    "Böhm",
    "Winter",
    "Kraus",
    "Martin",
    "Schumacher",
    "Vogt",
    "Jäger",
    "Otto",
    "Sommer",
    "Groß",
    "Seidel",
    "Heinrich",
    "Brandt",
    "Haas",
    "Schreiber",
    "Graf",
    "Schulte",
    "Dietrich",
    "Kühn",
]
CLUBS = (
    "Doko-Freunde Hannover",
    "DK Kreuz-Dame Braunschweig",
    "Fuchsjäger Bielefeld",
    "Karlchen Köln",
    "Doppelkopf-Club Münster",
    "Re-Partei Bremen",
    "Schwarzspieler Hamburg",
    "DKC Herz-Zehn Kassel",
    "Die Pflichtsolisten Göttingen",
    "Doko Rhein-Main",
    "Vorbehalt Oldenburg",
    "Keine 90 Dortmund",
)


@dataclass(frozen=True)
class DemoResult:
    tournaments: list[Tournament]
    username: str
    password: str
    # Who maintains the club's ranking list and admitted the finished tournament to it.
    maintainer: str = ""
    maintainer_password: str = ""
    # The league and the team championship (``demo.team_play``).
    competitions: tuple[Competition, ...] = ()


def _players(rng: random.Random, count: int) -> list[Player]:
    names: set[tuple[str, str]] = set()
    while len(names) < count:
        names.add((rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)))
    players = []
    for number, (first, last) in enumerate(sorted(names), start=1):
        member = rng.random() < 0.8
        players.append(
            services.player_create(
                first_name=first,
                last_name=last,
                club=rng.choice(CLUBS) if member else "",
                ddv_number=f"{rng.randrange(1, 9)}{number:04d}" if member else "",
            )
        )
    rng.shuffle(players)
    return players


def _new_names(rng: random.Random) -> team_play.NewName:
    """Names no demo player has yet, one per call."""
    taken = set(Player.objects.values_list("first_name", "last_name"))

    def new_name() -> tuple[str, str]:
        while True:
            name = (rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES))
            if name not in taken:
                taken.add(name)
                return name

    return new_name


def _organiser(username: str) -> tuple[User, str]:
    """A staff user who organises the demo tournaments, with a freshly generated password; a
    member of the Organisers group, so that he creates tournaments of his own too."""
    password = secrets.token_urlsafe(12)
    user, _created = get_user_model().objects.get_or_create(username=username)
    user.is_staff = True
    user.set_password(password)
    user.save()
    user.user_permissions.set(
        Permission.objects.filter(
            content_type__app_label__in=["tournaments", "scoring", "adjudication", "teams"]
        ).exclude(content_type__model__in=PERSON_MODELS)
        | Permission.objects.filter(content_type__app_label="auth", codename="view_user")
    )
    app, codename = policies.CREATE_PERMISSION.split(".")
    organisers, _created = Group.objects.get_or_create(name=policies.ORGANISERS_GROUP)
    organisers.permissions.add(
        Permission.objects.get(content_type__app_label=app, codename=codename)
    )
    user.groups.add(organisers)
    return user, password


# The ranking lists (the rankings app, not among his apps above) are their maintainers' to keep,
# not the organiser's: he may not appoint maintainers (himself, say) in the administration.
# Nor are the persons across tournaments his (``policies.may_change_person``): he corrects his
# tournaments' entries, the maintainer the person.
PERSON_MODELS = ["player", "personchange"]


def _maintainer(username: str) -> tuple[User, str]:
    """A user who maintains the demo's ranking lists, with a freshly generated password:
    no organiser and no staff of any tournament, so that he decides on the organiser's
    requests."""
    password = secrets.token_urlsafe(12)
    user, _created = get_user_model().objects.get_or_create(username=username)
    user.first_name, user.last_name = "Lena", "Listenführer"
    user.set_password(password)
    user.save()
    return user, password


def _upcoming(*, pool: list[Player], now: datetime.datetime, organiser: User) -> Tournament:
    """A club tournament in ten days whose online registration is open: its 24 places are
    taken (players registered on the public page, each with a personal link) and two more wait.
    """
    day = (now + datetime.timedelta(days=10)).date()
    tournament = services.tournament_create(
        name="Nikolausturnier der Doko-Freunde",
        starts_on=day,
        venue="Hannover, Freizeitheim Linden",
        planned_rounds=3,
        organiser=organiser,
    )
    registrations.registration_settings_save(
        tournament=tournament,
        by=organiser,
        opens_at=now - datetime.timedelta(days=14),
        closes_at=datetime.datetime.combine(
            day - datetime.timedelta(days=1), datetime.time(20), tzinfo=now.tzinfo
        ),
        capacity=24,
        waiting_list=True,
        note="Startgeld 10 €, am Turniertag bar am Eingang. Einlass ab 9:30 Uhr.",
    )
    for player in pool[144:170]:
        registrations.registration_submit(
            tournament=tournament,
            first_name=player.first_name,
            last_name=player.last_name,
            club=player.club,
            email=f"{slugify(player.first_name)}.{slugify(player.last_name)}@example.org",
            ddv_number=player.ddv_number,
            language="de",
            confirm_by_mail=False,
        )
    # Each names a person on record by DDV number, which is a claim until it is confirmed
    # (issue 44): the organiser knew his regulars; the last two wait for the desk to compare
    # their IDs on the day.
    admitted = tournament.entries.order_by("start_number")
    for entry in list(admitted)[:-2]:
        claims.registration_claim_confirm(entry=entry, by=organiser)
    return tournament


def _play_round(
    *,
    rng: random.Random,
    tournament: Tournament,
    started_at: datetime.datetime,
    organiser: User,
    running_for: datetime.timedelta | None = None,
    on_paper: bool = False,
) -> Round:
    """Seat, start and play one round; the organiser ends its playing time after 100 minutes
    (TSR 8.5.1). ``running_for``: the round is still being played. ``on_paper``: the tables
    keep paper sheets, which the organiser types in at the desk and confirms from the players'
    signatures (TSR 7.3.4, 8.5.2)."""
    # Drawn in advance by the DDV method, or drawn now.
    round_ = tournament.rounds.filter(status=Round.Status.SEATED).order_by("number").first()
    if round_ is None:
        round_ = services.round_create(tournament=tournament)
        services.round_seat(round=round_, seed=rng.randrange(2**32))
    services.round_start(round=round_, at=started_at)
    sheets = Scoresheet.objects.filter(table__round=round_).order_by("table__number")
    for sheet in sheets.prefetch_related("table__seats__entry"):
        table_size = len(sheet.table.seats.all())
        hands_per_match = tournament.hands_at(table_size)
        finished = running_for is None or rng.random() < 0.25
        hands_to_play = None
        if running_for is not None and not finished:
            # About four minutes a hand; some tables are quicker than others.
            minutes = running_for.total_seconds() / 60
            hands_to_play = max(0, min(hands_per_match - 1, int(minutes / rng.uniform(3.6, 5))))
        hands = simulate_match(
            rng=rng,
            table_size=table_size,
            hands_per_match=hands_per_match,
            hands_to_play=hands_to_play,
        )
        # The scorekeeper enters and hands in the sheet, the first dealer confirms it
        # (TSR 7.3.2, 7.3.4); on paper the desk types it and confirms it from the signatures.
        seats = {seat.position: seat for seat in sheet.table.seats.all()}
        keeper, checker = Actor(seat=seats[table_size]), Actor(seat=seats[1])
        if on_paper:
            keeper = checker = Actor(user=organiser)
        if hands:
            sheet = scoring_services.scoresheet_hands_replace(
                scoresheet=sheet, hands=hands, version=sheet.version, by=keeper
            )
        if finished and on_paper:
            scoring_services.scoresheet_confirm(
                scoresheet=sheet, version=sheet.version, by=keeper, from_signed_sheet=True
            )
        elif finished:
            sheet = scoring_services.scoresheet_submit(
                scoresheet=sheet, version=sheet.version, by=keeper
            )
            if running_for is None or rng.random() < 0.5:
                scoring_services.scoresheet_confirm(
                    scoresheet=sheet, version=sheet.version, by=checker
                )
    if running_for is None:
        services.round_end(
            round=round_, by=organiser, at=started_at + datetime.timedelta(minutes=100)
        )
        services.round_close(round=round_)
    return round_


def _adjudicate(*, round_: Round, user: User) -> None:
    """Round 4's complaints so far, at the first tables still playing with a few normal games
    on their sheet: one decided and initialled, one ruled and waiting for initials, one just
    noted, one appealed; and a warning for counting trumps aloud (a bound decision)."""
    tournament = round_.tournament
    with translation.override("de"):  # a German tournament: its catalogue is in German
        added = adjudication.offences_default(tournament=tournament, by=user)
    offences = {offence.rule: offence for offence in added}
    sheets = [
        sheet
        for sheet in Scoresheet.objects.filter(
            table__round=round_, status=Scoresheet.Status.DRAFT
        ).order_by("table__number")
        if sheet.hands.filter(contract="normal", number__gte=2).count() >= 2
    ][:4]
    minor = adjudication.Ruling(severity=Severity.MINOR)
    complaints = [
        ("Karo-Ass abgeworfen, obwohl Karo bedient werden konnte", offences["TSR 5.2.2"], minor),
        ("Zum zweiten Stich ausgespielt, ohne am Zug zu sein", offences["TSR 5.1.1, 5.3.4"], minor),
        ("Absage „keine 90“ nach der dritten Karte", None, None),
        ("Spielte aus, bevor das Solo angesagt war", None, minor),
    ]
    for number, (sheet, (what, offence, ruling)) in enumerate(
        zip(sheets, complaints, strict=False)
    ):
        hand = sheet.hands.filter(contract="normal", number__gte=2).order_by("number").first()
        assert hand is not None  # the sheets were chosen for having two such hands
        decision = adjudication.complaint_record(
            scoresheet=sheet,
            hand_number=hand.number,
            offender=2,
            complainant=1,
            offence=offence,
            description=what,
            by=user,
        )
        if ruling is None:
            continue
        decision = adjudication.decision_rule(decision=decision, ruling=ruling, by=user)
        if number == 1:
            continue  # waiting for initials
        decision = adjudication.decision_initial(decision=decision, by=user)
        if number == 3:
            adjudication.appeal_lodge(
                decision=decision,
                appellant=2,
                grounds="Das Solo war schon angesagt; kein Nachteil für den Solisten.",
                by=user,
            )
    if sheets:
        adjudication.sanction_impose(
            entry=sheets[0].table.seats.get(position=3).entry,
            round=round_,
            kind=Sanction.Kind.WARNING,
            offence=offences["TSR 9.1.4"],
            reasons="Hat die Trümpfe laut mitgezählt.",
            by=user,
        )


@transaction.atomic
def demo_build(*, seed: int = 2026, now: datetime.datetime) -> DemoResult:
    """Build the three demo tournaments, the league and the team championship, and an
    organiser for them."""
    rng = random.Random(seed)
    now = timezone.localtime(now)  # rounds begin at 10 o'clock local time
    user, password = _organiser("organiser")
    pool = _players(rng, 170)
    ranking = _club_day_build(rng=rng, now=now, organiser=user, pool=pool)
    championship = _championship_build(rng=rng, now=now, organiser=user, pool=pool)
    maintainer, maintainer_password = _club_list_build(tournament=ranking, organiser=user)
    upcoming = _upcoming(pool=pool, now=now, organiser=user)
    # The championship shows each club's best three beside its standings. (No settings service
    # offers the club ranking yet: written here as the organiser would set it.)
    Tournament.objects.filter(pk=championship.pk).update(club_ranking_players=3)
    new_name = _new_names(rng)
    with translation.override("de"):  # German competitions: their match days' names in German
        league = team_play.league_build(
            rng=rng, now=now, organiser=user, new_name=new_name, play_round=_play_round
        )
        team_championship = team_play.championship_build(
            rng=rng, now=now, organiser=user, new_name=new_name, play_round=_play_round
        )
    for tournament in (ranking, championship):
        tournament.refresh_from_db()  # the services changed its status
    return DemoResult(
        tournaments=[ranking, championship, upcoming],
        username=user.username,
        password=password,
        maintainer=maintainer.username,
        maintainer_password=maintainer_password,
        competitions=(league, team_championship),
    )


def _club_day_build(
    *, rng: random.Random, now: datetime.datetime, organiser: User, pool: list[Player]
) -> Tournament:
    """A club's tournament of 32 players three weeks ago, three rounds on paper."""
    ranking_day = (now - datetime.timedelta(days=23)).date()
    ranking = services.tournament_create(
        name="Herbstturnier der Doko-Freunde",
        starts_on=ranking_day,
        venue="Hannover, Freizeitheim Linden",
        planned_rounds=3,
        # A club day on paper: the desk typed every signed sheet in.
        sheet_keeping=SheetKeeping.PAPER,
        organiser=organiser,
    )
    for player in sorted(pool[:32], key=lambda p: (p.last_name, p.first_name)):
        services.entry_create(tournament=ranking, player=player)
    start = datetime.datetime.combine(ranking_day, datetime.time(10), tzinfo=now.tzinfo)
    for number in range(3):
        _play_round(
            rng=rng,
            tournament=ranking,
            started_at=start + datetime.timedelta(minutes=130 * number),
            organiser=organiser,
            on_paper=True,
        )
    return ranking


def _championship_build(
    *, rng: random.Random, now: datetime.datetime, organiser: User, pool: list[Player]
) -> Tournament:
    """A championship of 148 players in its second day: rounds 1 to 3 played yesterday from
    10 o'clock, round 4 begun 42 minutes ago, with a complaint ruled on and extra time."""
    yesterday = (now - datetime.timedelta(days=1)).date()
    championship = services.tournament_create(
        name="Deutsche Doppelkopf-Meisterschaft (Demo)",
        starts_on=yesterday,
        ends_on=now.date(),
        venue="Braunschweig, Stadthalle",
        planned_rounds=8,
        seating_method=SeatingMethod.DDV,
        # A DDV championship is played by the TSR (TSR 8.1.1): 24 hands in 100 minutes.
        official=True,
        organiser=organiser,
    )
    for player in pool[10:158]:
        services.entry_create(tournament=championship, player=player)
    day_one = datetime.datetime.combine(yesterday, datetime.time(10), tzinfo=now.tzinfo)
    for number in range(3):
        _play_round(
            rng=rng,
            tournament=championship,
            started_at=day_one + datetime.timedelta(minutes=130 * number),
            organiser=organiser,
        )
    round_4_start = now - datetime.timedelta(minutes=42)
    round_4 = _play_round(
        rng=rng,
        tournament=championship,
        started_at=round_4_start,
        organiser=organiser,
        running_for=now - round_4_start,
    )
    for role in (TournamentRole.Role.ADJUDICATOR, TournamentRole.Role.PANEL):
        adjudication.role_grant(tournament=championship, user=organiser, role=role, by=organiser)
    services.tournament_seating_publish(tournament=championship)
    _adjudicate(round_=round_4, user=organiser)
    services.table_extra_time_grant(
        table=round_4.tables.get(number=7),
        minutes=6,
        reason="Beschwerde in Spiel 9, Entscheidung des Schiedsrichters (TSR 9.7)",
        by=organiser,
    )
    return championship


def _club_list_build(*, tournament: Tournament, organiser: User) -> tuple[User, str]:
    """The club's ranking list, a maintainer for every list, and the club day admitted to the
    club's list; the maintainer and his password."""
    # The club's own list counts from three rounds, so that the finished tournament fills it.
    # It admits tournaments of 16 players, 3 rounds, at tables of four; its maintainer
    # admitted the finished one on the organiser's request.
    club_list = ranking_list_save(
        name="Vereinsrangliste der Doko-Freunde (Demo)",
        slug="doko-freunde",
        months=12,
        min_rounds=3,
        tournament_min_players=16,
        tournament_min_rounds=3,
        tournament_tables_of_four_only=True,
        ranking_list=RankingList.objects.filter(slug="doko-freunde").first(),
    )
    maintainer, maintainer_password = _maintainer("listenfuehrung")
    for ranking_list in RankingList.objects.all():
        if not ranking_list.maintainers.exists():
            ranking_list.maintainers.add(maintainer)
    tournament.refresh_from_db()
    admission = ranking_admission_request(
        ranking_list=club_list, tournament=tournament, by=organiser
    )
    ranking_admission_admit(
        admission=admission, by=maintainer, reason="Spiellisten stichprobenartig geprüft."
    )
    return maintainer, maintainer_password
