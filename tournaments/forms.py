"""Forms of the organiser's and adjudicator's pages, and how a service's errors reach a form or
a page. Forms parse input; services decide."""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, ExtraTime, Player, Tiebreaks, Tournament


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


MAX_IMPORT_BYTES = 2 * 1024 * 1024  # a list of 5,000 players is about 300 KB


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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
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


class SubstituteForm(forms.Form):
    """The player who takes a withdrawn player's seats."""

    first_name = EntryForm.base_fields["first_name"]
    last_name = EntryForm.base_fields["last_name"]
    club = EntryForm.base_fields["club"]
    ddv_number = EntryForm.base_fields["ddv_number"]


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "UTF-8, separated by semicolons or commas, with a header row: first name, last "
            "name, and optionally club, DDV number, start number."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(limit)d MB."),
                params={"limit": MAX_IMPORT_BYTES // (1024 * 1024)},
            )
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


class PublicationForm(forms.Form):
    """What the public sees of a tournament, and how its standings break ties."""

    is_public = forms.BooleanField(
        label=Tournament._meta.get_field("is_public").verbose_name,
        help_text=Tournament._meta.get_field("is_public").help_text,
        required=False,
    )
    standings_public = forms.BooleanField(
        label=Tournament._meta.get_field("standings_public").verbose_name,
        help_text=Tournament._meta.get_field("standings_public").help_text,
        required=False,
    )
    tiebreaks = forms.ChoiceField(
        label=Tournament._meta.get_field("tiebreaks").verbose_name,
        help_text=Tournament._meta.get_field("tiebreaks").help_text,
        choices=Tiebreaks.choices,
    )
