"""The forms of the registration's pages: the public registration page and the organiser's
settings of the online registration."""

from django import forms
from django.core.validators import MaxLengthValidator
from django.db import models
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from registration.models import OnlineRegistration, Registration
from tournaments import mails


class RegisterForm(forms.Form):
    """The public registration page's form (``services.registrations.registration_submit``)."""

    first_name = forms.CharField(label=Registration._meta.get_field("first_name").verbose_name)
    last_name = forms.CharField(label=Registration._meta.get_field("last_name").verbose_name)
    club = forms.CharField(label=Registration._meta.get_field("club").verbose_name, required=False)
    email = forms.EmailField(
        label=Registration._meta.get_field("email").verbose_name,
        max_length=254,
        help_text=_("Your confirmation and your personal link are sent here."),
    )
    ddv_number = forms.RegexField(
        label=Registration._meta.get_field("ddv_number").verbose_name,
        regex=r"^\d{1,20}$",
        max_length=20,
        required=False,
        error_messages={"invalid": _("A DDV membership number has digits only.")},
        help_text=_("If you have one."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            # The columns' names are lower case ("first name"); a label starts a line.
            field.label = capfirst(field.label)
        for name in ("first_name", "last_name", "club"):
            field, column = self.fields[name], Registration._meta.get_field(name)
            assert isinstance(field, forms.CharField)
            assert isinstance(column, models.CharField)
            field.max_length = column.max_length
            field.validators.append(MaxLengthValidator(column.max_length))
            field.widget.attrs["maxlength"] = column.max_length
        self.fields["first_name"].widget.attrs["autocomplete"] = "given-name"
        self.fields["last_name"].widget.attrs["autocomplete"] = "family-name"
        self.fields["email"].widget.attrs.update(autocomplete="email", maxlength=254)
        self.fields["ddv_number"].widget.attrs["inputmode"] = "numeric"
        if not mails.mail_leaves_the_server():
            # Promise no mail where none leaves (the answer then says so too).
            self.fields["email"].help_text = _(
                "For the organiser, who can reach you there; this site sends no e-mail."
            )


class RegistrationSettingsForm(forms.Form):
    """The organiser's settings of the online registration (``OnlineRegistration``)."""

    opens_at = forms.DateTimeField(
        label=OnlineRegistration._meta.get_field("opens_at").verbose_name,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    closes_at = forms.DateTimeField(
        label=OnlineRegistration._meta.get_field("closes_at").verbose_name,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    capacity = forms.IntegerField(
        label=OnlineRegistration._meta.get_field("capacity").verbose_name,
        help_text=OnlineRegistration._meta.get_field("capacity").help_text,
        min_value=1,
        max_value=10000,
        required=False,
    )
    waiting_list = forms.BooleanField(
        label=OnlineRegistration._meta.get_field("waiting_list").verbose_name,
        help_text=OnlineRegistration._meta.get_field("waiting_list").help_text,
        required=False,
    )
    note = forms.CharField(
        label=OnlineRegistration._meta.get_field("note").verbose_name,
        help_text=OnlineRegistration._meta.get_field("note").help_text,
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "maxlength": 2000}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, field in self.fields.items():
            # The columns' names are lower case ("opens", "beginnt"); a label starts a line.
            field.label = capfirst(field.label)
            field.widget.attrs["class"] = (
                "form-check-input" if name == "waiting_list" else "form-control"
            )
        self.fields["capacity"].widget.attrs["inputmode"] = "numeric"

    def clean(self):
        cleaned = super().clean() or {}
        opens_at, closes_at = cleaned.get("opens_at"), cleaned.get("closes_at")
        if opens_at and closes_at and closes_at <= opens_at:
            self.add_error("closes_at", _("Registration must close after it opens."))
        return cleaned
