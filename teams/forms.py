"""Forms of the team competitions' pages. Forms parse input; the services decide (and their
errors reach the form through ``tournaments.forms.errors_to_form``)."""

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from teams.models import (
    COMPETITION_SETTINGS,
    LINE_UP_PLACES,
    MOST_PLANNED_MATCH_DAYS,
    Competition,
    MatchDay,
    Team,
    TeamMember,
)
from tournaments.forms import PersonForm

# The most rounds a match day plays (a day of four is usual) and the most groups it has.
MAX_ROUNDS = 12
MAX_GROUPS = 16


def _attrs(form: forms.BaseForm) -> None:
    """Bootstrap's classes on every widget; a text field's length as the browser's limit."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.CheckboxInput | forms.RadioSelect):
            widget.attrs.setdefault("class", "form-check-input")
        elif isinstance(widget, forms.Select):
            widget.attrs.setdefault("class", "form-select")
        elif not isinstance(widget, forms.HiddenInput):
            widget.attrs.setdefault("class", "form-control")


class CompetitionForm(forms.ModelForm):
    """A competition's settings, as ``services.competition_create`` and ``competition_update``
    take them."""

    class Meta:
        model = Competition
        fields = list(COMPETITION_SETTINGS)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("promotion_places", "relegation_places"):
            field = self.fields[name]
            assert isinstance(field, forms.IntegerField)
            field.max_value = 64
            field.validators.append(MaxValueValidator(64))
            field.widget.attrs["max"] = 64
            field.widget.attrs["inputmode"] = "numeric"
        self.fields["is_public"].help_text = _(
            "Public: anyone sees its teams, match days and tables, without logging in."
        )
        _attrs(self)

    def _post_clean(self) -> None:
        """The services save the competition: no model validation of a half-made instance."""

    def settings(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


def _text(model: type[models.Model], name: str, **kwargs: Any) -> forms.CharField:
    column = model._meta.get_field(name)
    assert isinstance(column, models.CharField)
    return forms.CharField(
        label=column.verbose_name, max_length=column.max_length, strip=True, **kwargs
    )


class TeamForm(forms.Form):
    """A team's name and club."""

    name = _text(Team, "name")
    club = _text(Team, "club", required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _attrs(self)


class PersonSearchForm(forms.Form):
    """A name in any spelling, or a DDV number."""

    q = forms.CharField(label=_("Name or DDV number"), max_length=100, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _attrs(self)
        self.fields["q"].widget.attrs["type"] = "search"


class MemberAddForm(forms.Form):
    """A known person (``player``, found by the search) or a new one (name, club, DDV
    number) for the team; ``captain`` makes the player its captain."""

    player = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    first_name = PersonForm.base_fields["first_name"]
    last_name = PersonForm.base_fields["last_name"]
    club = PersonForm.base_fields["club"]
    ddv_number = PersonForm.base_fields["ddv_number"]
    captain = forms.BooleanField(label=_("Captain"), required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first_name", "last_name"):
            self.fields[name].required = False
        _attrs(self)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("player") is None and not self.errors:
            for name in ("first_name", "last_name"):
                if not cleaned.get(name):
                    self.add_error(
                        name, _("Choose a person found by the search, or give the new one's name.")
                    )
        return cleaned


class MatchDayForm(forms.Form):
    """A new match day: its date, venue and rounds, its stage, and its groups: drawn at random,
    or a group number for each team (``group_<team id>``; empty: the team does not play)."""

    DRAW, CHOOSE = "draw", "choose"

    starts_on = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    rounds = forms.IntegerField(label=_("Rounds"), min_value=1, max_value=MAX_ROUNDS, initial=4)
    stage = forms.ChoiceField(
        label=MatchDay._meta.get_field("stage").verbose_name,
        choices=MatchDay.Stage.choices,
        initial=MatchDay.Stage.GROUPS,
    )
    advance = forms.IntegerField(
        label=_("Teams going through each tie"),
        min_value=1,
        max_value=3,
        initial=2,
        help_text=_("Knock-out rounds only."),
    )
    grouping = forms.ChoiceField(
        label=_("Groups"),
        choices=[
            (DRAW, _("as the season plan has them, else drawn at random")),
            (CHOOSE, _("I choose the groups")),
        ],
        initial=DRAW,
        widget=forms.RadioSelect,
    )
    double = forms.BooleanField(
        label=_("double match day"),
        required=False,
        help_text=_(
            "Played in two halves (the first half of the rounds and the second), each scoring "
            "its own match points 4, 3, 2, 1."
        ),
    )

    def __init__(self, *args: Any, competition: Competition, teams: list[Team], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.teams = teams
        if competition.kind != Competition.Kind.CHAMPIONSHIP:
            stage = self.fields["stage"]
            assert isinstance(stage, forms.ChoiceField)
            stage.choices = [(MatchDay.Stage.GROUPS.value, MatchDay.Stage.GROUPS.label)]
            del self.fields["advance"]
        # A group seats four teams at each table, so there are at most as many groups as
        # four teams make: 8 teams are offered groups 1 and 2, not 1 to 16.
        most = max(1, min(MAX_GROUPS, len(teams) // 4))
        groups = [("", _("does not play"))] + [
            (str(n), _("Group %(number)d") % {"number": n}) for n in range(1, most + 1)
        ]
        for team in teams:
            self.fields[f"group_{team.pk}"] = forms.TypedChoiceField(
                label=team.name, choices=groups, coerce=int, required=False, empty_value=None
            )
        _attrs(self)
        self.fields["rounds"].widget.attrs["inputmode"] = "numeric"

    @property
    def main_fields(self) -> list[forms.BoundField]:
        return [field for field in self.visible_fields() if not field.name.startswith("group_")]

    @property
    def group_fields(self) -> list[forms.BoundField]:
        return [self[f"group_{team.pk}"] for team in self.teams]

    def groups(self) -> list[list[Team]] | None:
        """The chosen groups in their numbers' order, or None to draw them."""
        if self.cleaned_data["grouping"] == self.DRAW:
            return None
        chosen: dict[int, list[Team]] = {}
        for team in self.teams:
            number = self.cleaned_data.get(f"group_{team.pk}")
            if number is not None:
                chosen.setdefault(number, []).append(team)
        return [chosen[number] for number in sorted(chosen)]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("grouping") == self.CHOOSE and not any(
            cleaned.get(f"group_{team.pk}") for team in self.teams
        ):
            self.add_error("grouping", _("Choose a group for each team that plays."))
        return cleaned


class LineUpForm(forms.Form):
    """Who plays the four places of a team's line-up, from a round on."""

    from_round = forms.TypedChoiceField(label=_("From round"), coerce=int)

    def __init__(self, *args: Any, members: list[TeamMember], rounds: int, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.members = {member.player_id: member for member in members}
        from_round = self.fields["from_round"]
        assert isinstance(from_round, forms.ChoiceField)
        from_round.choices = [(n, str(n)) for n in range(1, rounds + 1)]
        choices = [("", "—")] + [(member.player_id, member.player.name) for member in members]
        for place in range(1, LINE_UP_PLACES + 1):
            self.fields[f"place_{place}"] = forms.TypedChoiceField(
                label=_("Place %(place)d") % {"place": place}, choices=choices, coerce=int
            )
        _attrs(self)

    def players(self) -> list:
        return [
            self.members[self.cleaned_data[f"place_{place}"]].player
            for place in range(1, LINE_UP_PLACES + 1)
        ]


class TieForm(forms.Form):
    """The director's decision for a team level at the cut of a knock-out tie."""

    place = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    through = forms.TypedChoiceField(
        choices=[("yes", _("goes through")), ("no", _("goes out"))],
        coerce=lambda value: value == "yes",
    )


class OrganiserForm(forms.Form):
    """Another organiser, named by user name or e-mail address."""

    user = forms.CharField(label=_("User name or e-mail address"), max_length=254)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _attrs(self)


class SeasonPlanForm(forms.Form):
    """A league's season plan: how many match days, and whether they are double match days."""

    match_days = forms.IntegerField(
        label=_("Match days"),
        min_value=1,
        max_value=MOST_PLANNED_MATCH_DAYS,
        help_text=_("16 teams over five match days: every team meets every other exactly once."),
    )
    double = forms.BooleanField(
        label=_("double match days"),
        required=False,
        help_text=_("Each match day is played in two halves, each scored 4, 3, 2, 1 on its own."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["match_days"].widget.attrs["inputmode"] = "numeric"
        _attrs(self)


class PlanSwapForm(forms.Form):
    """Two teams of one planned match day that change groups."""

    match_day = forms.IntegerField(
        min_value=1, max_value=MOST_PLANNED_MATCH_DAYS, widget=forms.HiddenInput
    )
    first = forms.TypedChoiceField(label=_("Team"), coerce=int)
    second = forms.TypedChoiceField(label=_("swaps groups with"), coerce=int)

    def __init__(self, *args: Any, teams: list[Team], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(team.pk, team.name) for team in teams]
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.TypedChoiceField)
            field.choices = choices
        _attrs(self)
