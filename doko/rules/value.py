"""Who won a hand and what it is worth (TSR 7.1, 7.2).

``hand_value`` takes what the table knows after the last trick (card points and tricks of the Re
team, the highest announcement of each team, the bonus points of each team) and returns the
winner, the game value for each Re player and one breakdown item per line of TSR 7.2.2 (a)-(f)
and 7.2.3 that applied. Every item credits one team; the value is what the Re team was credited
less what the Contra team was, which is how TSR 7.2.3 offsets bonus points.
"""

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import TypeVar

from doko.rules.contracts import SoloType
from doko.rules.problems import FieldError, InvalidInput, Template, gettext_noop, ngettext_noop

# The pack (TSR 2.2.1, 2.2.2): each of the 24 cards twice, in all four suits, so eight cards of
# each rank: nines 0, jacks 2, queens 3, kings 4, tens 10, aces 11.
RANK_CARD_POINTS = {"nine": 0, "jack": 2, "queen": 3, "king": 4, "ten": 10, "ace": 11}
CARDS_OF_A_RANK = 8
PACK = tuple(
    sorted(points for points in RANK_CARD_POINTS.values() for _ in range(CARDS_OF_A_RANK))
)  # the card points of the 48 cards, lowest first
CARD_POINTS = sum(PACK)  # 240, TSR 2.2.2
CARDS_IN_A_TRICK = 4
TRICKS = len(PACK) // CARDS_IN_A_TRICK  # 12
DOPPELKOPF_CARD_POINTS = 40  # a trick of 40 or more card points (TSR 7.2.3)
FOX_CARD_POINTS = 11  # the Ace of Diamonds
FOXES = 2  # each card occurs twice in the pack (TSR 2.2.1)
# A trick of 40 card points needs four cards worth 10 or 11 (an ace or a ten; three aces and a
# king make 37), and the pack has sixteen of them (TSR 2.2.2).
MOST_DOPPELKOPF = 4


class Team(StrEnum):
    RE = "re"  # Re-Partei
    CONTRA = "contra"  # Kontra-Partei

    @property
    def other(self) -> "Team":
        return Team.CONTRA if self is Team.RE else Team.RE


class Game(StrEnum):
    """What was played, as far as the game value is concerned."""

    NORMAL = "normal"
    WEDDING = "wedding"  # angemeldete Hochzeit, TSR 4.4.3
    SILENT_WEDDING = "silent_wedding"  # stille Hochzeit: settled as a diamonds solo, TSR 4.4.5
    SOLO = "solo"


class Announcement(IntEnum):
    """The highest announcement of one team; every lower level is implied (TSR 6.4.3)."""

    NONE = 0
    TEAM = 1  # "Re" or "Contra" (Ansage, TSR 6.2)
    NO_90 = 2  # point announcements (Absagen, TSR 6.3)
    NO_60 = 3
    NO_30 = 4
    SCHWARZ = 5

    @classmethod
    def parse(cls, team: Team, text: str | None) -> "Announcement":
        """Read ``re``/``contra``, ``no90``, ``no60``, ``no30``, ``schwarz`` or None."""
        if text is None:
            return cls.NONE
        if text == team.value:
            return cls.TEAM
        return _ANNOUNCEMENT_WORDS[text]


_ANNOUNCEMENT_WORDS = {
    "no90": Announcement.NO_90,
    "no60": Announcement.NO_60,
    "no30": Announcement.NO_30,
    "schwarz": Announcement.SCHWARZ,
}
POINT_ANNOUNCEMENTS = tuple(_ANNOUNCEMENT_WORDS.values())

# What a point announcement takes (TSR 7.1.2 no. 5, 7.1.3 no. 5): the opponents below 90, 60, 30.
_LIMIT = {Announcement.NO_90: 90, Announcement.NO_60: 60, Announcement.NO_30: 30}


@dataclass(frozen=True)
class Specials:
    """Bonus points (Sonderpunkte) one team won in a normal game (TSR 7.2.3)."""

    doppelkopf: int = 0  # tricks of 40 card points or more
    fox: int = 0  # opponents' Aces of Diamonds caught
    charlie: int = 0  # the last trick won with the Jack of Clubs

    def __bool__(self) -> bool:
        return bool(self.doppelkopf or self.fox or self.charlie)


@dataclass(frozen=True)
class HandResult:
    """What the table knows after the last trick. Contra has the rest of the card points and
    tricks. In a solo (and a wedding settled as one) the soloist is the Re team (TSR 2.4.7)."""

    game: Game
    re_card_points: int
    re_tricks: int
    re_announcement: Announcement = Announcement.NONE
    contra_announcement: Announcement = Announcement.NONE
    re_specials: Specials = Specials()
    contra_specials: Specials = Specials()
    wedding_solo: bool = False  # the wedding holder took the first three tricks, TSR 4.4.3 b
    solo_type: SoloType | None = None

    @property
    def settled_as_solo(self) -> bool:
        """A solo, a silent wedding (TSR 4.4.5) and a wedding whose holder took the first three
        tricks (TSR 4.4.3 b) are settled as a solo (TSR 7.2.4)."""
        return self.game in (Game.SOLO, Game.SILENT_WEDDING) or (
            self.game is Game.WEDDING and self.wedding_solo
        )

    def card_points(self, team: Team) -> int:
        return self.re_card_points if team is Team.RE else CARD_POINTS - self.re_card_points

    def tricks(self, team: Team) -> int:
        return self.re_tricks if team is Team.RE else TRICKS - self.re_tricks

    def announcement(self, team: Team) -> Announcement:
        return self.re_announcement if team is Team.RE else self.contra_announcement

    def specials(self, team: Team) -> Specials:
        return self.re_specials if team is Team.RE else self.contra_specials


@dataclass(frozen=True)
class Item:
    """One line of TSR 7.2.2 or 7.2.3 that applied: ``points`` credited to ``team``."""

    rule: str
    label: str  # English, marked for translation
    team: Team
    points: int


@dataclass(frozen=True)
class HandValue:
    winner: Team | None  # None: neither team reached its target (TSR 7.1.4)
    settled_as_solo: bool
    re_value: int  # for each Re player; a soloist receives three times it (TSR 7.2.4)
    breakdown: tuple[Item, ...]


def card_points_bounds(tricks: int) -> tuple[int, int]:
    """The fewest and the most card points ``tricks`` tricks can hold (TSR 2.2.1, 2.2.2).

    k tricks are 4k cards of the pack, so they hold at least the card points of its 4k lowest
    cards and at most those of its 4k highest: 5 tricks at least 28, 3 tricks at most 128.
    Both bounds are reached by some deal and play. Since the 4k lowest and the 48 - 4k highest
    cards make the whole pack, the bounds of one team's tricks are those of the other team's
    card points: checking Re's figures checks Contra's.
    """
    if not 0 <= tricks <= TRICKS:
        raise ValueError(f"a hand has {TRICKS} tricks, not {tricks}")
    cards = CARDS_IN_A_TRICK * tricks
    return sum(PACK[:cards]), sum(PACK[len(PACK) - cards :])


def highest_game_value(*, settled_as_solo: bool) -> int:
    """The most a hand can be worth for each winner (TSR 7.2.2, 7.2.3, 7.2.4).

    Of 7.2.2: (a) won, under 90, 60, 30 and schwarz: 5; (b) both teams' "Re" and "Contra": 4;
    (c), (d) every point announcement of both teams: 8; (e) or (f), the winners' card points
    against all four of the losers' point announcements: 4. That is 21, a solo's most, which
    the soloist wins three times. A normal game adds the bonus points of 7.2.3: winning against
    the Queens of Clubs, four Doppelkopf tricks, two foxes and Charlie: 29.
    """
    most = 5 + 2 * 2 + 2 * len(POINT_ANNOUNCEMENTS) + len(POINT_ANNOUNCEMENTS)
    if settled_as_solo:
        return most
    return most + 1 + MOST_DOPPELKOPF + FOXES + 1


def wins(hand: HandResult, team: Team) -> bool:
    """Whether ``team`` reached its target (TSR 7.1.2 for Re, 7.1.3 for Contra).

    A team's own point announcement commits it: 151 (181, 211) card points, or every trick after
    "schwarz" (no. 5, 6). Otherwise the opponents' point announcement sets the bar: 90 (60, 30)
    card points, or one trick against "schwarz" (no. 7, 8). Otherwise Re needs 121 and Contra
    120, except when Contra alone announced: then Re needs 120 and Contra 121 (no. 1-4).
    """
    own, other = hand.announcement(team), hand.announcement(team.other)
    points, tricks = hand.card_points(team), hand.tricks(team)
    if own is Announcement.SCHWARZ:
        return tricks == TRICKS
    if own >= Announcement.NO_90:
        return points > CARD_POINTS - _LIMIT[own]
    if other is Announcement.SCHWARZ:
        return tricks >= 1
    if other >= Announcement.NO_90:
        return points >= _LIMIT[other]
    contra_alone = hand.contra_announcement is Announcement.TEAM and not hand.re_announcement
    if team is Team.RE:
        return points >= (120 if contra_alone else 121)
    return points >= (121 if contra_alone else 120)


def winner(hand: HandResult) -> Team | None:
    for team in Team:
        if wins(hand, team):
            return team
    return None


_UNDER = (
    (90, gettext_noop("Opponents under 90")),
    (60, gettext_noop("Opponents under 60")),
    (30, gettext_noop("Opponents under 30")),
)
_TEAM_ANNOUNCED = {
    Team.RE: gettext_noop("“Re” announced"),
    Team.CONTRA: gettext_noop("“Contra” announced"),
}
_POINT_ANNOUNCED = {
    Team.RE: {
        Announcement.NO_90: gettext_noop("Re announced “no 90”"),
        Announcement.NO_60: gettext_noop("Re announced “no 60”"),
        Announcement.NO_30: gettext_noop("Re announced “no 30”"),
        Announcement.SCHWARZ: gettext_noop("Re announced “schwarz”"),
    },
    Team.CONTRA: {
        Announcement.NO_90: gettext_noop("Contra announced “no 90”"),
        Announcement.NO_60: gettext_noop("Contra announced “no 60”"),
        Announcement.NO_30: gettext_noop("Contra announced “no 30”"),
        Announcement.SCHWARZ: gettext_noop("Contra announced “schwarz”"),
    },
}
# TSR 7.2.2 (e), (f): card points reached against the opponents' point announcement.
_REACHED = {
    Announcement.NO_90: (120, gettext_noop("120 card points against “no 90”")),
    Announcement.NO_60: (90, gettext_noop("90 card points against “no 60”")),
    Announcement.NO_30: (60, gettext_noop("60 card points against “no 30”")),
    Announcement.SCHWARZ: (30, gettext_noop("30 card points against “schwarz”")),
}


_T = TypeVar("_T")


def _letter(team: Team, re: _T, contra: _T) -> _T:
    return re if team is Team.RE else contra


def hand_value(hand: HandResult) -> HandValue:
    """The winner (TSR 7.1) and the game value (TSR 7.2) of a hand.

    Raises ``InvalidInput`` listing every inconsistency of the input (``check_hand_result``).
    """
    errors = check_hand_result(hand)
    if errors:
        raise InvalidInput(errors)
    won_by = winner(hand)
    items: list[Item] = []

    # (a) The base value and the levels the losers stayed under; when neither team won, each
    # team is credited the levels its opponents stayed under (TSR 7.1.4).
    for team in (won_by,) if won_by else tuple(Team):
        loser = team.other
        if won_by:
            items.append(Item("TSR 7.2.2 (a)", gettext_noop("Won"), team, 1))
        for limit, label in _UNDER:
            if hand.card_points(loser) < limit:
                items.append(Item("TSR 7.2.2 (a)", label, team, 1))
        if hand.tricks(loser) == 0:
            items.append(
                Item("TSR 7.2.2 (a)", gettext_noop("Opponents schwarz (no trick)"), team, 1)
            )

    # (b)-(d) Announcements raise the value for the winner only (TSR 6.3.3, 7.1.4).
    if won_by:
        for team in Team:
            if hand.announcement(team) >= Announcement.TEAM:
                items.append(Item("TSR 7.2.2 (b)", _TEAM_ANNOUNCED[team], won_by, 2))
        for team in Team:
            rule = "TSR 7.2.2 " + _letter(team, "(c)", "(d)")
            for level in POINT_ANNOUNCEMENTS:
                if hand.announcement(team) >= level:
                    items.append(Item(rule, _POINT_ANNOUNCED[team][level], won_by, 1))

    # (e), (f) Card points reached against the opponents' point announcements.
    for team in Team:
        rule = "TSR 7.2.2 " + _letter(team, "(e)", "(f)")
        for level in POINT_ANNOUNCEMENTS:
            reached, label = _REACHED[level]
            if hand.announcement(team.other) >= level and hand.card_points(team) >= reached:
                items.append(Item(rule, label, team, 1))

    # Bonus points: normal games only (TSR 7.2.3, 7.2.4).
    if not hand.settled_as_solo:
        if won_by is Team.CONTRA:
            items.append(
                Item("TSR 7.2.3", gettext_noop("Won against the Queens of Clubs"), won_by, 1)
            )
        for team in Team:
            specials = hand.specials(team)
            for count, label in (
                (specials.doppelkopf, gettext_noop("Doppelkopf")),
                (specials.fox, gettext_noop("Fox caught")),
                (specials.charlie, gettext_noop("Charlie took the last trick")),
            ):
                if count:
                    items.append(Item("TSR 7.2.3", label, team, count))

    re_value = sum(item.points if item.team is Team.RE else -item.points for item in items)
    return HandValue(
        winner=won_by,
        settled_as_solo=hand.settled_as_solo,
        re_value=re_value,
        breakdown=tuple(items),
    )


def check_hand_result(hand: HandResult) -> list[FieldError]:
    """Every reason why ``hand`` cannot be the end of a hand played by the TSR."""
    errors = _figure_errors(hand)
    if errors:
        return errors
    errors += _trick_points_errors(hand)
    errors += _game_errors(hand)
    for team in Team:
        errors += _team_specials_errors(hand, team)
    errors += _pack_specials_errors(hand)
    return errors


def _error(field: str, rule: str, template: Template, **params: object) -> FieldError:
    return FieldError(field, rule, template, params)


def _figure_errors(hand: HandResult) -> list[FieldError]:
    """Re's card points and tricks within the pack (TSR 2.2.1, 2.2.2)."""
    errors = []
    if not 0 <= hand.re_card_points <= CARD_POINTS:
        errors.append(
            _error(
                "re_card_points",
                "TSR 2.2.2",
                gettext_noop("The pack has {total} card points; Re cannot have {points}."),
                total=CARD_POINTS,
                points=hand.re_card_points,
            )
        )
    if not 0 <= hand.re_tricks <= TRICKS:
        errors.append(
            _error(
                "re_tricks",
                "TSR 2.2.1",
                gettext_noop("A hand has {total} tricks; Re cannot have taken {tricks}."),
                total=TRICKS,
                tricks=hand.re_tricks,
            )
        )
    return errors


def _trick_points_errors(hand: HandResult) -> list[FieldError]:
    """Re's card points within what its tricks can hold (TSR 2.2.2)."""
    # k tricks hold the card points of 4k cards of the pack (TSR 2.2.2). The sheet records Re's
    # figures; Contra's are the rest and lie within their bounds exactly when Re's do
    # (``card_points_bounds``). Both fields are named: either may be the one mistyped.
    least, most = card_points_bounds(hand.re_tricks)
    if least <= hand.re_card_points <= most:
        return []
    return [
        _error(
            field,
            "TSR 2.2.2",
            ngettext_noop(
                "Re took {tricks} trick, which holds between {least} and {most} card "
                "points, not {points}.",
                "Re took {tricks} tricks, which hold between {least} and {most} card "
                "points, not {points}.",
                count="tricks",
            ),
            tricks=hand.re_tricks,
            least=least,
            most=most,
            points=hand.re_card_points,
        )
        for field in ("re_card_points", "re_tricks")
    ]


def _game_errors(hand: HandResult) -> list[FieldError]:
    """A wedding turned solo, and a solo type, only where the game has one (TSR 2.3.3, 4.4.3 b,
    4.4.5)."""
    errors = []
    if hand.wedding_solo and hand.game is not Game.WEDDING:
        errors.append(
            _error(
                "wedding_solo",
                "TSR 4.4.3 b",
                gettext_noop("Only an announced wedding can turn into a solo."),
            )
        )
    if hand.game is Game.SOLO and hand.solo_type is None:
        errors.append(_error("solo_type", "TSR 2.3.3", gettext_noop("Say which solo was played.")))
    if hand.game is not Game.SOLO and hand.solo_type is not None:
        errors.append(
            _error(
                "solo_type",
                "TSR 4.4.5",
                gettext_noop(
                    "Only a solo names its type; a silent wedding is settled as a diamonds solo."
                ),
            )
        )
    return errors


def _team_specials_errors(hand: HandResult, team: Team) -> list[FieldError]:
    """One team's bonus points: none in a solo, and each within the team's card points and
    tricks (TSR 7.2.3, 7.2.4)."""
    specials = hand.specials(team)
    field = _letter(team, "re_specials", "contra_specials")
    if hand.settled_as_solo and specials:
        return [
            _error(
                field,
                "TSR 7.2.3, 7.2.4",
                gettext_noop("Bonus points are won in normal games only, not in a solo."),
            )
        ]
    points, tricks = hand.card_points(team), hand.tricks(team)
    if specials.doppelkopf < 0 or specials.fox < 0 or specials.charlie not in (0, 1):
        return [
            _error(
                field,
                "TSR 7.2.3",
                gettext_noop(
                    "Doppelkopf and fox count tricks and cards (0 or more); charlie is 0 or 1."
                ),
            )
        ]
    errors = []
    if specials.doppelkopf * DOPPELKOPF_CARD_POINTS > points:
        errors.append(
            _error(
                field,
                "TSR 7.2.3",
                ngettext_noop(
                    "{count} Doppelkopf trick holds at least {least} card points; "
                    "this team has {points}.",
                    "{count} Doppelkopf tricks hold at least {least} card points; "
                    "this team has {points}.",
                ),
                count=specials.doppelkopf,
                least=specials.doppelkopf * DOPPELKOPF_CARD_POINTS,
                points=points,
            )
        )
    if specials.fox * FOX_CARD_POINTS > points:
        errors.append(
            _error(
                field,
                "TSR 7.2.3",
                ngettext_noop(
                    "{count} fox caught is {least} card points; this team has {points}.",
                    "{count} foxes caught are {least} card points; this team has {points}.",
                ),
                count=specials.fox,
                least=specials.fox * FOX_CARD_POINTS,
                points=points,
            )
        )
    if specials.charlie and not tricks:
        errors.append(
            _error(
                field,
                "TSR 7.2.3",
                gettext_noop("A team that took no trick cannot have won the last one."),
            )
        )
    return errors


def _pack_specials_errors(hand: HandResult) -> list[FieldError]:
    """Both teams' bonus points together within the pack: four Doppelkopf tricks, two foxes,
    one charlie (TSR 2.2.1, 2.2.2, 7.2.3)."""
    errors = []
    if hand.re_specials.doppelkopf + hand.contra_specials.doppelkopf > MOST_DOPPELKOPF:
        errors.append(
            _error(
                "contra_specials",
                "TSR 2.2.2, 7.2.3",
                gettext_noop(
                    "At most four tricks hold 40 card points: only the sixteen aces and tens "
                    "are worth 10 or more."
                ),
            )
        )
    if hand.re_specials.fox + hand.contra_specials.fox > FOXES:
        errors.append(
            _error(
                "contra_specials",
                "TSR 2.2.1, 7.2.3",
                gettext_noop("The pack has two Aces of Diamonds, so at most two foxes are caught."),
            )
        )
    if hand.re_specials.charlie and hand.contra_specials.charlie:
        errors.append(
            _error(
                "contra_specials",
                "TSR 7.2.3",
                gettext_noop("Only one team can win the last trick with the Jack of Clubs."),
            )
        )
    return errors
