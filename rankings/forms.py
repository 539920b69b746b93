"""The forms of the ranking lists' pages."""

from django import forms


class MaintainerForm(forms.Form):
    """A maintainer appoints an account, named by user name or e-mail address (``user``), or
    removes one by user name (``username``); text a database may store (no NUL)."""

    user = forms.CharField(max_length=254, required=False)
    username = forms.CharField(max_length=150, required=False)


class RankingRequestForm(forms.Form):
    """The ranking list an organiser asks to admit his tournament, or withdraws it from."""

    list = forms.SlugField(max_length=80)
