from django import forms
from django.utils.translation import gettext_lazy as _


class CodeForm(forms.Form):
    """A code of the second factor: six digits from the authenticator app, or a backup code."""

    code = forms.CharField(
        label=_("Code"),
        max_length=32,
        error_messages={"required": _("Please type the code.")},
    )
