"""The form of one scoresheet row, in the three ways a hand can be entered.

- quick: the game value and the seats that scored plus (TSR 7.3.3.3); the points follow;
- calculator: the end of play (card points, tricks, announcements, bonus points); the rules
  engine works out the value (TSR 7.1, 7.2) and shows its breakdown;
- raw: the points of every seat, as on paper.

``HandForm.line`` is the hand as the rules core reads it; the dealer comes from the sheet.
"""

import copy
import functools
from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from doko.rules.contracts import Contract, SoloType
from doko.rules.deal import TABLE_OF_FOUR, sitting_out
from doko.rules.entry import (
    Entered,
    game_of,
    points_from_plus_seats,
    points_from_result,
    re_tricks_for,
)
from doko.rules.problems import InvalidInput
from doko.rules.sheet import HandLine
from doko.rules.value import Announcement, Game, HandResult, Specials, Team
from scoring.models import CONTRACT_LABELS, SOLO_TYPE_LABELS
from tournaments.messages import rule_message

MODES = {
    "quick": _("Quick"),
    "calculator": _("Calculator"),
    "raw": _("Points"),
}
ANNOUNCEMENTS = [
    ("", _("none")),
    ("team", _("Re / Contra")),
    ("no90", _("no 90")),
    ("no60", _("no 60")),
    ("no30", _("no 30")),
    ("schwarz", _("schwarz")),
]
_ANNOUNCEMENT_LEVELS = {
    "": Announcement.NONE,
    "team": Announcement.TEAM,
    "no90": Announcement.NO_90,
    "no60": Announcement.NO_60,
    "no30": Announcement.NO_30,
    "schwarz": Announcement.SCHWARZ,
}
# Weddings played alone are diamonds solos (TSR 4.4.3 b, 4.4.5).
_DIAMONDS_ALONE = {Contract.WEDDING, Contract.SILENT_WEDDING}
# The codes of the errors for a field the hand needs and that is left empty: still to fill in
# rather than wrong. MISSING: the way of entry needs it; NEEDED: the hand, for the reason given.
MISSING = "missing"
NEEDED = "needed"


def _alone(points: dict[int, int], *, soloist: int | None, dealer: int, table_size: int) -> bool:
    """Whether the points of a wedding show ``soloist`` playing alone: three times what each
    of the three others pays or gets (TSR 7.2.4); a seat sitting out at five has none."""
    if soloist is None or not points.get(soloist):
        return soloist is not None
    out = sitting_out(dealer=dealer, table_size=table_size)
    others = [seat for seat in range(1, table_size + 1) if seat != soloist and seat not in out]
    return all(points[seat] * -3 == points[soloist] for seat in others)


class SeatsField(forms.CharField):
    """Seat numbers typed as digits, "13" or "1 3" or "1,3": fast on a keyboard and a phone."""

    def to_python(self, value):
        text = super().to_python(value) or ""  # "" when empty (CharField's empty_value)
        digits = [char for char in text if not char.isspace() and char not in ",;/+"]
        if any(not (char.isascii() and char.isdigit()) for char in digits):
            raise forms.ValidationError(_("Type seat numbers only, such as 13."))
        seats = [int(char) for char in digits]
        if len(set(seats)) != len(seats):
            raise forms.ValidationError(_("Each seat only once."))
        return seats


@functools.cache
def _hand_fields(table_size: int, dealer: int, language: str | None) -> dict[str, forms.Field]:
    """The fields of a hand's row at a table of ``table_size`` whose TSR dealer is ``dealer``:
    the seats to choose from, the dealer's initial, a points field per seat (its label in
    ``language``). Made once per process for each (a few dozen in all), shared by the forms."""
    fields = copy.deepcopy(HandForm.base_fields)
    soloist_field, dealer_field = fields["soloist"], fields["dealer"]
    assert isinstance(soloist_field, forms.ChoiceField)  # as declared in HandForm
    assert isinstance(dealer_field, forms.ChoiceField)
    seats = [(seat, str(seat)) for seat in range(1, table_size + 1)]
    soloist_field.choices = [("", "–"), *seats]
    dealer_field.choices = seats
    dealer_field.initial = dealer
    for seat in range(1, table_size + 1):
        fields[f"points_{seat}"] = forms.IntegerField(
            label=_("Seat %(seat)d") % {"seat": seat},
            min_value=-999,
            max_value=999,
            required=False,
        )
    return fields


def _count(label, most):
    return forms.IntegerField(label=label, min_value=0, max_value=most, required=False)


class HandForm(forms.Form):
    mode = forms.ChoiceField(
        label=_("How to enter the hand"), choices=list(MODES.items()), initial="quick"
    )
    contract = forms.ChoiceField(
        label=_("Contract"), choices=list(CONTRACT_LABELS.items()), initial="normal"
    )
    solo_type = forms.ChoiceField(
        label=_("Solo"), choices=[("", "–"), *SOLO_TYPE_LABELS.items()], required=False
    )
    # Left empty, the soloist is None (not ""): in the quick way the plus seats name him.
    soloist = forms.TypedChoiceField(
        label=_("Soloist"), coerce=int, required=False, empty_value=None
    )
    # Who dealt: the TSR's dealer unless the scorekeeper names another. A hand dealt by the
    # wrong player stands when nobody complained in time (TSR 9.7.3).
    dealer = forms.TypedChoiceField(label=_("Dealer"), coerce=int, required=False, empty_value=None)
    # The dealer was away and his left neighbour dealt for him (TSR 3.3.2): the dealer stays
    # the seat whose turn it was; the rotation does not move.
    dealt_by_neighbour = forms.BooleanField(
        label=_("his left neighbour dealt for him"), required=False
    )
    # quick
    game_value = forms.IntegerField(label=_("Value"), min_value=0, max_value=99, required=False)
    plus_seats = SeatsField(label=_("Plus seats"), required=False, max_length=9)
    # calculator
    re_seats = SeatsField(label=_("Re seats"), required=False, max_length=9)
    re_card_points = forms.IntegerField(
        label=_("Re card points"), min_value=0, max_value=240, required=False
    )
    # Needed only when a team took no card points: then whether it took a trick (schwarz)
    # counts (doko.rules.entry.tricks_matter).
    re_tricks = forms.IntegerField(label=_("Re tricks"), min_value=0, max_value=12, required=False)
    re_announcement = forms.ChoiceField(
        label=_("Re announced"), choices=ANNOUNCEMENTS, required=False
    )
    contra_announcement = forms.ChoiceField(
        label=_("Contra announced"), choices=ANNOUNCEMENTS, required=False
    )
    re_doppelkopf = _count(_("Re: Doppelkopf"), 4)
    re_fox = _count(_("Re: foxes"), 2)
    re_charlie = _count(_("Re: Charlie"), 1)
    contra_doppelkopf = _count(_("Contra: Doppelkopf"), 4)
    contra_fox = _count(_("Contra: foxes"), 2)
    contra_charlie = _count(_("Contra: Charlie"), 1)
    wedding_solo = forms.BooleanField(label=_("Wedding played alone"), required=False)

    def __init__(self, *args, table_size: int, dealer: int, **kwargs):
        # Django copies a form's declared fields deeply for every form it makes, which cost a
        # hand's save more than the check of its hands (issue 45). Nothing changes a field of
        # this form once it is made, so the forms of one table size, dealer and language share
        # theirs (``_hand_fields``), each form with its own mapping of them; the copy it would
        # make of the declared fields is of none.
        self.base_fields = {}  # type: ignore[misc]  # this form's own, not the class's
        super().__init__(*args, **kwargs)
        self.fields = dict(_hand_fields(table_size, dealer, get_language()))
        self.table_size = table_size
        # The TSR's dealer, unless the form names another (``dealer`` is the declared field's
        # name: ``form.dealer`` in a template).
        self.tsr_dealer = dealer
        self.line: HandLine | None = None
        self.entered: Entered | None = None

    # The fields the entry row lists in loops, in the form's order: named here once rather
    # than looked for among all of the form's fields in the template (issue 45).
    def header_fields(self):
        """The fields whose errors stand above the row: the way of entry and the dealer."""
        return self._named(("mode", "dealer"))

    def calculator_fields(self):
        """The calculator's card points, tricks and announcements."""
        return self._named(
            ("re_card_points", "re_tricks", "re_announcement", "contra_announcement")
        )

    def bonus_fields(self):
        """The bonus points (TSR 7.2.3)."""
        return [
            self[name]
            for name in self.fields
            if "doppelkopf" in name or "_fox" in name or "charlie" in name
        ]

    def _named(self, names: tuple[str, ...]):
        return [self[name] for name in self.fields if name in names]

    def points_fields(self):
        return [self[f"points_{seat}"] for seat in range(1, self.table_size + 1)]

    @property
    def sitting_out(self) -> tuple[int, ...]:
        """The seats that sit this hand out: at a table of five the dealer, the one named or
        else the TSR's (TSR 10.1.1), at six and seven the dealer and the players to his left
        (``doko.rules.deal.sitting_out``); they score nothing, so their points are not asked
        for."""
        if self.table_size == TABLE_OF_FOUR:
            return ()
        named = self["dealer"].value()
        dealer = int(named) if str(named or "").isdigit() else self.tsr_dealer
        if not 1 <= dealer <= self.table_size:
            dealer = self.tsr_dealer
        return sitting_out(dealer=dealer, table_size=self.table_size)

    @property
    def first_playing_seat(self) -> int:
        """The first seat whose points are typed: the first that does not sit out."""
        out = self.sitting_out
        return next(seat for seat in range(1, self.table_size + 1) if seat not in out)

    def _empty(self, name: str) -> bool:
        return self.cleaned_data.get(name) in (None, "", [])

    def _need(self, *names: str) -> bool:
        """Whether the fields the way of entry needs are filled in; an error for each that is
        not, coded ``MISSING``: the live check lists them as still to fill in, not as wrong."""
        missing = [name for name in names if self._empty(name)]
        for name in missing:
            message = _("Fill in this field: the “%(mode)s” entry needs it.") % {
                "mode": MODES[self.cleaned_data["mode"]]
            }
            self.add_error(name, forms.ValidationError(message, code=MISSING))
        return not missing

    def _core_errors(self, error: InvalidInput) -> None:
        for item in error.errors:
            field = item.field if item.field in self.fields else None
            # The core asks for a field left empty: it is still to be filled in.
            code = NEEDED if field is not None and self._empty(field) else "invalid"
            message = rule_message(item.template, item.params, item.rule)
            self.add_error(field, forms.ValidationError(message, code=code))

    def _coded(self, *codes: str | None) -> list[tuple[str | None, str]]:
        """The errors with one of ``codes`` (None: any other), by label (None: the row)."""
        return [
            (str(self.fields[name].label) if name in self.fields else None, message)
            for name, errors in self.errors.as_data().items()
            for error in errors
            if (error.code in codes) or (None in codes and error.code not in (MISSING, NEEDED))
            for message in error.messages
        ]

    def missing(self) -> list[str]:
        """The labels of the fields the way of entry needs that are still to fill in."""
        return [label for label, _message in self._coded(MISSING) if label is not None]

    def needed(self) -> list[tuple[str | None, str]]:
        """The fields this hand needs that are still to fill in, each with the reason."""
        return self._coded(NEEDED)

    def wrong(self) -> list[tuple[str | None, str]]:
        """What is wrong with what was typed, by label (None: the row as a whole); the fields
        only left empty are not in it (``missing``, ``needed``)."""
        return self._coded(None)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        contract = Contract(data["contract"])
        dealer = data.get("dealer") or self.tsr_dealer
        soloist = data.get("soloist")
        solo_type = SoloType(data["solo_type"]) if data.get("solo_type") else None
        mode = data["mode"]
        try:
            if mode == "quick":
                if not self._need("game_value"):
                    return data
                self.entered = points_from_plus_seats(
                    table_size=self.table_size,
                    dealer=dealer,
                    contract=contract,
                    game_value=data["game_value"],
                    plus_seats=data.get("plus_seats") or [],
                    # A wedding's plus seats alone say whether it was played alone.
                    soloist=soloist if contract.names_soloist else None,
                )
            elif mode == "calculator":
                if not self._need("re_seats", "re_card_points"):
                    return data
                self.entered = points_from_result(
                    table_size=self.table_size,
                    dealer=dealer,
                    re_seats=data["re_seats"],
                    result=self._result(contract, solo_type),
                )
        except InvalidInput as error:
            self._core_errors(error)
            return data
        if self.entered is not None:
            points = dict(self.entered.points)
            if contract.names_soloist:
                soloist = self.entered.soloist if self.entered.soloist is not None else soloist
            else:
                # Whether a wedding was played alone the plus seats say (one or three) or the
                # calculator's "played alone": a soloist chosen besides, left over from an
                # earlier solo, is moot (TSR 4.4.3 b).
                soloist = self.entered.soloist
            game_value = self.entered.game_value
        else:
            # At a table of five the dealer sits out and scores nothing (TSR 10.1.1), at six
            # and seven the players to his left with him (TSR 10): their points are not
            # asked for; left empty they are 0.
            out = sitting_out(dealer=dealer, table_size=self.table_size)
            seats = range(1, self.table_size + 1)
            if not self._need(*(f"points_{seat}" for seat in seats if seat not in out)):
                return data
            points = {seat: data[f"points_{seat}"] or 0 for seat in seats}
            game_value = None  # read off the points, then checked (doko.rules.sheet)
            if contract is Contract.WEDDING and not _alone(
                points, soloist=soloist, dealer=dealer, table_size=self.table_size
            ):
                soloist = None  # the points show a wedding with a partner (TSR 7.2.2, 7.2.4)
        if contract in _DIAMONDS_ALONE and soloist is not None:
            solo_type = SoloType.DIAMONDS
        if contract.names_soloist and soloist is None:
            message = _("Name the soloist (TSR 7.3.3.3).")
            self.add_error("soloist", forms.ValidationError(message, code=NEEDED))
        if contract is Contract.NORMAL:
            soloist, solo_type = None, None
        elif soloist is not None and solo_type is None:
            message = _("Say which solo was played (TSR 2.3.3).")
            self.add_error("solo_type", forms.ValidationError(message, code=NEEDED))
        if contract is Contract.WEDDING and soloist is None:
            solo_type = None
        if self.errors:
            return data
        self.line = HandLine(
            contract=contract,
            dealer=dealer,
            points=points,
            soloist=soloist,
            solo_type=solo_type,
            game_value=game_value,
            dealt_by_neighbour=bool(data.get("dealt_by_neighbour")),
        )
        return data

    def _result(self, contract: Contract, solo_type: SoloType | None) -> HandResult:
        data = self.cleaned_data

        def specials(team: Team) -> Specials:
            return Specials(
                doppelkopf=data.get(f"{team}_doppelkopf") or 0,
                fox=data.get(f"{team}_fox") or 0,
                charlie=data.get(f"{team}_charlie") or 0,
            )

        wedding_solo = contract is Contract.WEDDING and data.get("wedding_solo", False)
        game = game_of(contract)
        return HandResult(
            game=game,
            re_card_points=data["re_card_points"],
            re_tricks=re_tricks_for(
                re_card_points=data["re_card_points"], re_tricks=data.get("re_tricks")
            ),
            re_announcement=_ANNOUNCEMENT_LEVELS[data.get("re_announcement") or ""],
            contra_announcement=_ANNOUNCEMENT_LEVELS[data.get("contra_announcement") or ""],
            re_specials=specials(Team.RE),
            contra_specials=specials(Team.CONTRA),
            wedding_solo=wedding_solo,
            solo_type=solo_type if game is Game.SOLO else None,
        )


def initial_for(line: HandLine, *, mode: str = "quick") -> dict:
    """Form values showing a stored hand for editing."""
    initial = {
        "mode": mode,
        "dealer": line.dealer,
        "dealt_by_neighbour": line.dealt_by_neighbour,
        "contract": str(line.contract),
        "soloist": line.soloist or "",
        "solo_type": str(line.solo_type) if line.solo_type else "",
        "game_value": line.game_value,
        "plus_seats": "".join(
            str(seat) for seat, points in sorted(line.points.items()) if points > 0
        ),
    }
    for seat, points in line.points.items():
        initial[f"points_{seat}"] = points
    return initial
