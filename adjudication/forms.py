"""Forms of the adjudicators' pages. They parse input; the services decide by the TSR."""

from collections.abc import Iterable
from typing import TypeVar

from django import forms
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from adjudication.models import MOST_DEDUCTION, SEVERITY_LABELS, Appeal, Decision, Offence, Sanction
from adjudication.services import Ruling, SanctionRuling
from doko.rules.contracts import Contract
from doko.rules.penalty import MOST_ANNOUNCEMENTS
from doko.rules.procedure import WrittenLine
from scoring.models import CONTRACT_LABELS, SOLO_TYPE_LABELS
from tournaments.models import Round, TournamentRole


def _styled(form: forms.Form) -> None:
    """Bootstrap's classes on every widget, so that templates can render ``{{ field }}``."""
    for field in form.fields.values():
        widget = field.widget
        if isinstance(widget, forms.CheckboxInput):
            css = "form-check-input"
        elif isinstance(widget, forms.CheckboxSelectMultiple | forms.RadioSelect):
            continue
        elif isinstance(widget, forms.Select):
            css = "form-select"
        else:
            css = "form-control"
        widget.attrs.setdefault("class", css)


_F = TypeVar("_F", bound=forms.Field)


def _field(form: forms.BaseForm, name: str, kind: type[_F]) -> _F:
    """The form's field ``name``, of the kind its class declares it."""
    field = form.fields[name]
    assert isinstance(field, kind)
    return field


class _MembersField(forms.ModelMultipleChoiceField):
    """Members of the arbitration panel to choose, by their full names."""

    def label_from_instance(self, obj: User) -> str:
        return obj.get_full_name() or obj.username

    def clean(self, value):
        # A number beyond 64 bits is no account's, and SQLite cannot even be asked for it.
        for pk in value or ():
            try:
                beyond = not -(2**63) <= int(pk) < 2**63
            except (TypeError, ValueError):
                beyond = False  # not a number: Django refuses it as it is
            if beyond:
                raise forms.ValidationError(
                    self.error_messages["invalid_pk_value"],
                    code="invalid_pk_value",
                    params={"pk": pk},
                )
        return super().clean(value)


def _seats(size: int, *, blank: str | None = None) -> list[tuple[str, str]]:
    choices = [("", blank)] if blank is not None else []
    return choices + [
        (str(seat), _("Seat %(seat)d") % {"seat": seat}) for seat in range(1, size + 1)
    ]


class ComplaintForm(forms.Form):
    """A complaint, as the adjudicator notes it at the table (TSR 9.7.5)."""

    hand_number = forms.IntegerField(label=_("Hand"), min_value=1)
    offender = forms.TypedChoiceField(label=_("Offender"), coerce=int)
    complainant = forms.TypedChoiceField(
        label=_("Complaint by"), coerce=int, required=False, empty_value=None
    )
    offence = forms.ModelChoiceField(
        label=_("Standard offence"), queryset=Offence.objects.none(), required=False
    )
    description = forms.CharField(
        label=_("What happened"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("May stay empty when a standard offence says it all."),
    )

    def __init__(self, *args, size: int, offences: QuerySet[Offence], **kwargs):
        super().__init__(*args, **kwargs)
        _field(self, "offender", forms.ChoiceField).choices = _seats(size)
        _field(self, "complainant", forms.ChoiceField).choices = _seats(size, blank="–")
        _field(self, "offence", forms.ModelChoiceField).queryset = offences.filter(
            kind=Offence.Kind.BREACH
        )
        self.fields["hand_number"].widget.attrs["inputmode"] = "numeric"
        _styled(self)


ANNOUNCEMENT_CHOICES = [
    (0, _("none")),
    (1, _("Re or Contra")),
    (2, _("… and “no 90”")),
    (3, _("… and “no 60”")),
    (4, _("… and “no 30”")),
    (5, _("… and “schwarz”")),
]


class RulingForm(forms.Form):
    """The ruling on a breach (TSR 9.2-9.5); the penalty points follow from it unless the
    adjudicator deviates and says why."""

    severity = forms.ChoiceField(
        label=_("Severity"), choices=list(SEVERITY_LABELS.items()), widget=forms.RadioSelect
    )
    contract = forms.ChoiceField(
        label=_("Contract as it stood"), choices=list(CONTRACT_LABELS.items()), initial="normal"
    )
    soloist = forms.TypedChoiceField(
        label=_("Soloist"),
        coerce=int,
        required=False,
        empty_value=None,
        help_text=_("In a wedding: the holder of both Queens of Clubs."),
    )
    solo_type = forms.ChoiceField(
        label=_("Solo"), choices=[("", "–"), *SOLO_TYPE_LABELS.items()], required=False
    )
    wedding_clarified_as_solo = forms.BooleanField(
        label=_("The wedding was already being played as a solo (TSR 4.4.3 b, 4.4.5)"),
        required=False,
        help_text=_(
            "An announced wedding after its clarification trick, the holder having taken the "
            "first three tricks; a silent wedding once the second Queen of Clubs was played. "
            "Before that a wedding is penalised as a normal game."
        ),
    )
    disadvantages_soloist = forms.BooleanField(
        label=_("The breach may disadvantage the soloist (TSR 9.3.3 b1)"), required=False
    )
    announcements = forms.TypedChoiceField(
        label=_("Announcements of the other side up to the breach"),
        choices=ANNOUNCEMENT_CHOICES,
        coerce=int,
        initial=0,
        help_text=_("Each point announcement raises a major penalty by 3 (TSR 9.4.3, 9.4.4)."),
    )
    decided = forms.BooleanField(
        label=_("The game was already won after announcements (TSR 9.5.1)"), required=False
    )
    written_line = forms.ChoiceField(
        label=_("The line already written for this hand is"),
        choices=[
            ("", _("– (the hand is not stopped)")),
            (WrittenLine.STOPPED.value, _("the stopped game itself")),
            (WrittenLine.NEXT.value, _("the game dealt after it")),
        ],
        required=False,
        help_text=_(
            "Only for a major breach that stops the hand (TSR 9.4.3) or counts a solo as "
            "played without game points (TSR 9.4.4). The stopped game itself: its line is "
            "replaced (by a line “not played”, and the replay follows; or by the solo without "
            "game points). The game dealt after it: the stopped game's line goes in before it."
        ),
    )
    deviate = forms.BooleanField(label=_("Deviate from the TSR's penalty points"), required=False)
    deviation_reason = forms.CharField(
        label=_("Reason for deviating"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, size: int, written: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.size = size
        if not written:  # asked only of a hand whose line is on the sheet (TSR 9.4.3, 9.4.4)
            del self.fields["written_line"]
        _field(self, "soloist", forms.ChoiceField).choices = _seats(size, blank="–")
        self.fields["announcements"].validators = []
        for seat in range(1, size + 1):
            self.fields[f"penalty_{seat}"] = forms.IntegerField(
                label=_("Seat %(seat)d") % {"seat": seat},
                required=False,
                min_value=-99,
                max_value=99,
                widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
            )
        _styled(self)

    @property
    def penalty_fields(self):
        return [self[f"penalty_{seat}"] for seat in range(1, self.size + 1)]

    def clean_announcements(self):
        value = self.cleaned_data["announcements"]
        if not 0 <= value <= MOST_ANNOUNCEMENTS:
            raise forms.ValidationError(_("Choose one of the announcements."))
        return value

    def ruling(self) -> Ruling:
        data = self.cleaned_data
        penalty = None
        if data["deviate"]:
            penalty = {seat: data.get(f"penalty_{seat}") or 0 for seat in range(1, self.size + 1)}
        return Ruling.from_values(data, penalty=penalty)

    @classmethod
    def initial_for(cls, decision: Decision, line) -> dict:
        """Start from the decision as ruled, or from the hand as the sheet has it."""
        if decision.status != Decision.Status.OPEN:
            initial = {
                name: getattr(decision, name)
                for name in (
                    "severity",
                    "contract",
                    "soloist",
                    "solo_type",
                    "disadvantages_soloist",
                    "announcements",
                    "decided",
                    "deviation_reason",
                    "wedding_clarified_as_solo",
                    "written_line",
                )
            }
            initial["deviate"] = decision.deviates
            initial.update({f"penalty_{s}": p for s, p in decision.penalty.items()})
            return initial
        if decision.offence is not None and decision.offence.severity:
            initial = {"severity": decision.offence.severity}
        else:
            initial = {}
        if line is not None and (line.contract.is_solo or line.contract.names_soloist):
            initial.update(
                contract=line.contract.value,
                soloist=line.soloist,
                solo_type=line.solo_type.value if line.contract.is_solo else "",
            )
        elif line is not None and line.contract is Contract.WEDDING:
            initial.update(contract=line.contract.value, soloist=line.soloist)
        return initial


class AppealForm(forms.Form):
    """A player's appeal to the arbitration panel (TSR 8.2.1, 9.7.7): against a decision, by
    the seat of ``size`` that appeals; against a bound decision's sanction (no ``size``), the
    player sanctioned."""

    appellant = forms.TypedChoiceField(label=_("Appeal by"), coerce=int)
    grounds = forms.CharField(
        label=_("Grounds"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def __init__(self, *args, size: int | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if size is None:
            del self.fields["appellant"]
        else:
            _field(self, "appellant", forms.ChoiceField).choices = _seats(size)
        _styled(self)


class PanelForm(forms.Form):
    """The arbitration panel's decision on an appeal (TSR 8.2.1)."""

    outcome = forms.ChoiceField(
        label=_("Decision"), choices=Appeal.Outcome.choices, widget=forms.RadioSelect
    )
    members = _MembersField(
        label=_("Members of the arbitration panel"),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
    )
    reasons = forms.CharField(label=_("Reasons"), widget=forms.Textarea(attrs={"rows": 3}))
    interruption = forms.IntegerField(
        label=_("Interruption (minutes)"),
        min_value=0,
        max_value=120,
        initial=0,
        help_text=_(
            "The table concerned and the tables where members of the panel play get it back "
            "(TSR 8.5.1)."
        ),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args, members: QuerySet[User], **kwargs):
        super().__init__(*args, **kwargs)
        _field(self, "members", _MembersField).queryset = members
        _styled(self)


def _deduction_points() -> forms.IntegerField:
    """The points of a deduction for unsporting conduct: 1 to 12 (TSR 9.6.2 b)."""
    return forms.IntegerField(
        label=_("Points deducted"),
        min_value=1,
        max_value=MOST_DEDUCTION,
        required=False,
        help_text=_("For a point deduction: 1 to 12, without credit to the others (TSR 9.6.2 b)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class SanctionChangeForm(forms.Form):
    """The panel's own sanction when it changes a bound decision on appeal (TSR 9.6.2 a, b)."""

    kind = forms.ChoiceField(
        label=_("Sanction"),
        choices=[
            (Sanction.Kind.WARNING, Sanction.Kind.WARNING.label),
            (Sanction.Kind.DEDUCTION, Sanction.Kind.DEDUCTION.label),
        ],
    )
    points = _deduction_points()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _styled(self)

    def sanction_ruling(self) -> SanctionRuling:
        return SanctionRuling.from_values(self.cleaned_data)


class SanctionForm(forms.Form):
    """A sanction for unsporting conduct (TSR 9.6.2)."""

    start_number = forms.IntegerField(label=_("Start number"), min_value=1)
    round = forms.TypedChoiceField(label=_("Round"), coerce=int)
    offence = forms.ModelChoiceField(
        label=_("Standard offence"), queryset=Offence.objects.none(), required=False
    )
    kind = forms.ChoiceField(label=_("Sanction"), choices=Sanction.Kind.choices)
    points = _deduction_points()
    reasons = forms.CharField(label=_("Reasons"), widget=forms.Textarea(attrs={"rows": 3}))
    members = _MembersField(
        label=_("Members of the arbitration panel"),
        queryset=None,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Not for a bound decision, which the adjudicator gives alone (TSR 9.6.3)."),
    )

    def __init__(
        self,
        *args,
        rounds: Iterable[Round],
        offences: QuerySet[Offence],
        members: QuerySet[User],
        **kwargs,
    ):
        super().__init__(*args, **kwargs)
        _field(self, "round", forms.ChoiceField).choices = [
            (r.number, _("Round %(number)d") % {"number": r.number}) for r in rounds
        ]
        _field(self, "offence", forms.ModelChoiceField).queryset = offences.filter(
            kind=Offence.Kind.UNSPORTING
        )
        _field(self, "members", _MembersField).queryset = members
        self.fields["start_number"].widget.attrs["inputmode"] = "numeric"
        _styled(self)


class OffenceForm(forms.Form):
    """A standard offence of the catalogue with its preset outcome."""

    name = forms.CharField(label=_("Name"), max_length=200)
    rule = forms.CharField(label=_("Rule"), max_length=60, required=False)
    kind = forms.ChoiceField(label=_("Kind"), choices=Offence.Kind.choices)
    severity = forms.ChoiceField(
        label=_("Severity"),
        choices=[("", "–"), *SEVERITY_LABELS.items()],
        required=False,
        help_text=_("For a breach of the rules: the severity usually ruled."),
    )
    bound = forms.BooleanField(label=_("Bound decision (TSR 9.6.3)"), required=False)
    deduction = forms.IntegerField(
        label=_("Points deducted"),
        min_value=0,
        max_value=12,
        required=False,
        help_text=_("For a bound decision: 0 is a warning, 1 to 12 points are deducted."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _styled(self)


class _StaffForm(forms.Form):
    # No role chosen in advance: nobody becomes an organiser because the form started there.
    role = forms.ChoiceField(label=_("Role"), choices=[("", "–"), *TournamentRole.Role.choices])
    start_number = forms.IntegerField(
        label=_("Plays as (start number)"),
        min_value=1,
        required=False,
        help_text=_("If they play in the tournament."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class RoleForm(_StaffForm):
    """Offer a role to someone by his account's user name (``services.staff_appoint``)."""

    username = forms.CharField(label=_("User name"), max_length=150)
    field_order = ["username", "role", "start_number"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"].widget.attrs
        username.update(autocomplete="off", autocapitalize="none", spellcheck="false")
        _styled(self)


class InviteForm(_StaffForm):
    """Invite someone by name and e-mail address: the link to accept is sent to the address
    (``services.staff_invite``). Its fields' ids differ from ``RoleForm``'s on the same page."""

    name = forms.CharField(label=_("Name"), max_length=150, help_text=_("First and last name."))
    email = forms.EmailField(label=_("E-mail address"), max_length=254)
    field_order = ["name", "email", "role", "start_number"]

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "invite_%s")
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        self.fields["email"].widget.attrs["autocomplete"] = "off"
        _styled(self)


class AccountSearchForm(forms.Form):
    """Find an account of the staff of the organiser's tournaments by a part of its name or
    user name, in any case, with or without accents (``selectors.accounts_matching``)."""

    q = forms.CharField(
        label=_("Find among the staff of your tournaments"), max_length=100, required=False
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "search_%s")
        super().__init__(*args, **kwargs)
        self.fields["q"].widget.attrs.update(type="search", autocomplete="off")
        _styled(self)
