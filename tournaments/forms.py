"""Forms of the organiser's and adjudicator's pages, and how a service's errors reach a form or
a page. Forms parse input; services decide."""

import dataclasses

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from doko.rules.official import OFFICIAL
from tournaments import player_import
from tournaments.models import Entry, ExtraTime, Player, Tournament
from tournaments.selectors import SETTINGS, SettingsLocks


def errors_to_form(form: forms.BaseForm, error: ValidationError) -> None:
    """Put a service's errors on the form: on their field where it has one, else on top."""
    if hasattr(error, "error_dict"):
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error.messages)


def error_messages(error: ValidationError) -> list[str]:
    """A service's errors as messages for the top of a page, fields and all."""
    return (
        [message for messages_ in error.message_dict.values() for message in messages_]
        if hasattr(error, "error_dict")
        else list(error.messages)
    )


class EntryForm(forms.Form):
    """A registration: the person and their start number (empty: the next free one)."""

    first_name = forms.CharField(label=Player._meta.get_field("first_name").verbose_name)
    last_name = forms.CharField(label=Player._meta.get_field("last_name").verbose_name)
    club = forms.CharField(label=Player._meta.get_field("club").verbose_name, required=False)
    ddv_number = forms.RegexField(
        label=Player._meta.get_field("ddv_number").verbose_name,
        regex=r"^\d{1,20}$",
        required=False,
        error_messages={"invalid": _("A DDV membership number has digits only.")},
    )
    start_number = forms.IntegerField(
        label=Entry._meta.get_field("start_number").verbose_name,
        min_value=1,
        required=False,
        help_text=_("Empty: the next free number."),
    )
    # Where the player's personal link is mailed (``services.personal_links_mail``).
    email = forms.EmailField(
        label=Entry._meta.get_field("email").verbose_name,
        max_length=Entry._meta.get_field("email").max_length,
        required=False,
        help_text=_("Optional: the player's personal link can be mailed to it."),
    )
    # Shown once the DDV number was refused as another person's: the organiser says it is the
    # same person, the name spelt differently (``services.player_find_or_create``).
    same_person = forms.BooleanField(
        label=_("It is the same person, the name spelt differently"),
        required=False,
        help_text=_(
            "Only for a name that differs in its spelling (umlauts, accents), not another name."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["same_person"].widget.attrs["class"] = "form-check-input"
        self.fields["email"].widget.attrs["autocomplete"] = "off"
        for name in ("first_name", "last_name", "club"):
            field, column = self.fields[name], Player._meta.get_field(name)
            # Text fields declared above, for text columns of the model.
            assert isinstance(field, forms.CharField)
            assert isinstance(column, models.CharField)
            field.max_length = column.max_length
            field.widget.attrs["maxlength"] = field.max_length
        self.fields["first_name"].widget.attrs["autocomplete"] = "off"
        self.fields["last_name"].widget.attrs["autocomplete"] = "off"
        self.fields["ddv_number"].widget.attrs["inputmode"] = "numeric"
        self.fields["start_number"].widget.attrs["inputmode"] = "numeric"

    @property
    def asks_same_person(self) -> bool:
        return asks_same_person(self)


class SubstituteForm(forms.Form):
    """The player who takes a withdrawn player's seats."""

    first_name = EntryForm.base_fields["first_name"]
    last_name = EntryForm.base_fields["last_name"]
    club = EntryForm.base_fields["club"]
    ddv_number = EntryForm.base_fields["ddv_number"]
    same_person = EntryForm.base_fields["same_person"]

    @property
    def asks_same_person(self) -> bool:
        return asks_same_person(self)


def asks_same_person(form: forms.BaseForm) -> bool:
    """Whether to show the "same person" box: once the DDV number was refused as another
    person's, or ticked already."""
    return bool(form.errors.get("ddv_number")) or bool(form.data.get("same_person"))


class PersonForm(forms.Form):
    """A correction of a person, for every tournament and ranking list of theirs."""

    first_name = EntryForm.base_fields["first_name"]
    last_name = EntryForm.base_fields["last_name"]
    club = EntryForm.base_fields["club"]
    ddv_number = EntryForm.base_fields["ddv_number"]


class MergeForm(forms.Form):
    """The other record of the same person: by its DDV membership number, or by its record
    number (the number in the link of its page, …/players/123/) or that link."""

    ddv_number = forms.RegexField(
        label=_("DDV number of the other record"),
        regex=r"^\d{1,20}$",
        required=False,
        error_messages={"invalid": _("A DDV membership number has digits only.")},
    )
    record = forms.RegexField(
        label=_("or its record number or link"),
        regex=r"^(.*/players/)?\d{1,18}/?$",
        required=False,
        max_length=300,
        help_text=_("The number in the link of the other record's page: …/players/123/."),
        error_messages={"invalid": _("A record number, or the link of a player's page.")},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ddv_number"].widget.attrs["inputmode"] = "numeric"

    def clean_record(self) -> int | None:
        text = self.cleaned_data["record"].strip().rstrip("/")
        return int(text.rsplit("/", 1)[-1]) if text else None

    def clean(self):
        cleaned = super().clean() or {}
        given = [name for name in ("ddv_number", "record") if cleaned.get(name)]
        if len(given) != 1 and not self.errors:
            self.add_error(
                "record" if given else "ddv_number",
                _("Give the other record's DDV number or its record number, one of them."),
            )
        return cleaned


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "UTF-8, separated by semicolons or commas, with a header row: first name, last "
            "name, and optionally club, DDV number, start number."
        ),
    )

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if message := player_import.size_error(upload.size):
            raise forms.ValidationError(message)
        return upload.read()


class ExtraTimeForm(forms.Form):
    """Extra playing time for one table (TSR 8.5.1)."""

    table = forms.IntegerField(label=_("Table"), min_value=1)
    minutes = forms.IntegerField(
        label=ExtraTime._meta.get_field("minutes").verbose_name, min_value=1, max_value=120
    )
    reason = forms.CharField(
        label=ExtraTime._meta.get_field("reason").verbose_name,
        max_length=ExtraTime._meta.get_field("reason").max_length,
        help_text=_("For example: complaint at hand 9, 6 minutes (TSR 8.5.1)."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("table", "minutes"):
            self.fields[name].widget.attrs["inputmode"] = "numeric"


# The settings as the pages group them.
SETTING_GROUPS = (
    (_("The tournament"), ("name", "starts_on", "ends_on", "venue")),
    (_("Official tournament (TSR 8.1.1)"), ("official",)),
    (
        _("Rounds"),
        ("planned_rounds", "seating_method", "hands_per_match", "match_minutes"),
    ),
    (
        _("Tables of five (TSR 10)"),
        ("allow_tables_of_five", "hands_per_match_five", "match_minutes_five"),
    ),
    (_("Tables of six and seven (TSR 10)"), ("allow_tables_of_six_and_seven", "springer")),
    (_("Scoresheets"), ("sheet_keeping", "double_entry")),
    (
        _("Standings and publication"),
        (
            "tiebreaks",
            "counts_for_ranking",
            "is_public",
            "standings_public",
            "club_ranking_players",
        ),
    ),
)


# The submit button that fills in the official tournament's round without saving anything.
OFFICIAL_FILL = "official_fill"
# The official value of each setting of the round, and the section that fixes it.
_OFFICIAL_RULES = {
    "hands_per_match": "TSR 8.5.1",
    "match_minutes": "TSR 8.5.1",
    "hands_per_match_five": "TSR 10.1.5",
    "match_minutes_five": "TSR 10.1.5",
}


class SettingsForm(forms.Form):
    """Every setting of a tournament, from its model's fields (labels, help, bounds, choices).
    ``locks``: the settings that can no longer change are shown disabled, each with its
    reason beside it (``groups``). Each setting of the round says what an official tournament
    plays (TSR 8.1.1), and ``OFFICIAL_FILL`` fills that in (``official_filled``)."""

    def __init__(self, *args, locks: SettingsLocks | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields.update(forms.fields_for_model(Tournament, fields=SETTINGS))
        self.locks: dict[str, str] = dict(locks.locked) if locks is not None else {}
        for name in SETTINGS:
            field = self.fields[name]
            if isinstance(field, forms.DateField):
                field.widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
            if isinstance(field, forms.IntegerField):
                field.widget.attrs["inputmode"] = "numeric"
                # The model's bounds, checked here too and offered to the browser.
                column = Tournament._meta.get_field(name)
                assert isinstance(column, models.Field)  # a setting is a column of the model
                for validator in column.validators:
                    if isinstance(validator, MinValueValidator | MaxValueValidator):
                        field.validators.append(validator)
                        bound = "min" if isinstance(validator, MinValueValidator) else "max"
                        field.widget.attrs[bound] = validator.limit_value
            if isinstance(field.widget, forms.CheckboxInput):
                field.widget.attrs["class"] = "form-check-input"
            elif isinstance(field.widget, forms.Select):
                field.widget.attrs["class"] = "form-select"
            else:
                field.widget.attrs["class"] = "form-control"
        for name, rule in _OFFICIAL_RULES.items():
            field = self.fields[name]
            official = _("Official tournament: %(value)d (%(rule)s).") % {
                "value": getattr(OFFICIAL, name),
                "rule": rule,
            }
            field.help_text = f"{field.help_text} {official}" if field.help_text else official
        for name in self.locks:
            self.fields[name].disabled = True
        if locks is not None:
            self.fields["planned_rounds"].widget.attrs["min"] = max(1, locks.rounds)

    def groups(self) -> list[tuple[str, list[tuple[forms.BoundField, str]]]]:
        """The settings under their headings, in the pages' order: each field with the reason
        it is locked ("" if it is not)."""
        return [
            (str(title), [(self[name], self.locks.get(name, "")) for name in names])
            for title, names in SETTING_GROUPS
        ]

    def official_filled(self) -> dict:
        """What was typed, ticked official with the TSR's round filled in (TSR 8.5.1,
        10.1.5): the initial values of the form shown again, unsaved. A locked setting keeps
        its value."""
        typed = {name: self[name].data for name, field in self.fields.items() if not field.disabled}
        filled = {"official": True, **dataclasses.asdict(OFFICIAL)}
        return {
            **typed,
            **{name: value for name, value in filled.items() if not self.fields[name].disabled},
        }

    def changes(self) -> dict:
        """The settings as entered, for ``services.tournament_update``; not the locked ones."""
        return {
            name: value
            for name, value in self.cleaned_data.items()
            if name in SETTINGS and not self.fields[name].disabled
        }


class TournamentSettingsForm(SettingsForm):
    """The settings page's form: every setting and the short name for links, which is shown
    locked with its reason (``slug_refusal``) once links went out with it."""

    slug = forms.SlugField(
        label=capfirst(Tournament._meta.get_field("slug").verbose_name),
        max_length=80,
        help_text=_(
            "Links to the tournament that were printed or shared already stop working when "
            "it changes."
        ),
    )

    def __init__(self, *args, slug_refusal: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.slug_refusal = slug_refusal
        self.fields["slug"].widget.attrs["class"] = "form-control"
        self.fields["slug"].disabled = bool(slug_refusal)

    def changes(self) -> dict:
        """The settings as entered, and the short name unless it is locked."""
        changes = super().changes()
        if not self.fields["slug"].disabled:
            changes["slug"] = self.cleaned_data["slug"]
        return changes


class TournamentForm(SettingsForm):
    """A new tournament: its settings (the last day empty: the first day), a short name for
    links if not the one made from the name and year; from an earlier tournament, which one,
    which of its players are registered again (``players``: each start number with its
    label; the active ones are ticked at first) and whether its staff are appointed again."""

    slug = forms.SlugField(
        label=capfirst(Tournament._meta.get_field("slug").verbose_name),
        max_length=80,
        required=False,
        help_text=_(
            "Empty: made from the name and the year. It can change until something is "
            "printed or a round's seating is published."
        ),
    )
    source = forms.SlugField(widget=forms.HiddenInput, required=False)
    entries = forms.TypedMultipleChoiceField(
        label=_("Players registered again, with the same start numbers"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    staff = forms.BooleanField(
        label=_("Offer its staff their roles again"),
        required=False,
    )

    def __init__(self, *args, players: list[tuple[int, str]] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ends_on"].required = False
        self.fields["ends_on"].help_text = _("Empty: the first day.")
        self.fields["slug"].widget.attrs["class"] = "form-control"
        field = self.fields["entries"]
        assert isinstance(field, forms.TypedMultipleChoiceField)  # declared above
        field.choices = players or []
        field.widget.attrs["class"] = "form-check-input"
        self.fields["staff"].widget.attrs["class"] = "form-check-input"
