"""The tournament's staff (TSR 8.2): the organiser offers a role to someone by user name (the
role is theirs once they accept it; his own name makes it his at once), invites someone by
e-mail address (a fresh link, or the invitation withdrawn), and revokes a role."""

from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.forms import Form
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from adjudication import forms, selectors, services
from adjudication.invitations import VALID_FOR
from adjudication.views.common import button, form_apply, tournament_for
from tournaments.models import Entry, Tournament
from tournaments.permissions import AuthenticatedHttpRequest, roles_of
from tournaments.roles import ORGANISER
from tournaments.site import absolute_url


def _role_text(grant) -> str:
    return f"{grant.user.get_full_name() or grant.user.get_username()} ({grant.get_role_display()})"


# The invitation just made, kept in the session for the staff page that the form redirects to.
INVITATION_SESSION_KEY = "adjudication-invitation"


def _staff_entry(form: Form, tournament: Tournament) -> Entry | None:
    """The player a member of staff is, by the form's start number; an error on the form if
    there is none."""
    number = form.cleaned_data["start_number"]
    if not number:
        return None
    entry = Entry.objects.filter(tournament=tournament, start_number=number).first()
    if entry is None:
        form.add_error("start_number", _("No player has this start number."))
    return entry


def _staff_page(
    request: AuthenticatedHttpRequest,
    tournament: Tournament,
    *,
    form: forms.RoleForm | None = None,
    invite_form: forms.InviteForm | None = None,
) -> HttpResponse:
    """The staff, the open offers and invitations, the search among the staff of the
    organiser's tournaments, and the forms to offer a role by user name and to invite someone
    by e-mail address; a form with errors is shown as it was sent (422)."""
    search = forms.AccountSearchForm(request.GET)
    query = search.cleaned_data["q"] if search.is_valid() else ""
    invitation = None
    stored = request.session.get(INVITATION_SESSION_KEY)
    if request.method == "GET" and stored and stored.get("slug") == tournament.slug:
        invitation = request.session.pop(INVITATION_SESSION_KEY)
    mail_sent = services.mail_leaves_the_server()
    invitations = selectors.staff_invitations(tournament=tournament)
    # Every open invitation keeps its link to pass on, where the site sends no mail (where
    # it does, the link goes to the address only: see ``services.staff_invite``). The one
    # just made shows it above, with how to pass it on.
    just_made = invitation.get("pk") if invitation else None
    links = [
        (sent, absolute_url(request, path) if path and sent.pk != just_made else None)
        for sent, path in (
            selectors.staff_invitation_links(
                invitations=invitations, roles=roles_of(request, tournament)
            )
            if not mail_sent
            else [(sent, None) for sent in invitations]
        )
    ]
    return render(
        request,
        "adjudication/staff.html",
        {
            "tournament": tournament,
            "roles": selectors.staff_roles(tournament=tournament),
            "offers": selectors.role_offers(tournament=tournament),
            "invitations": links,
            "now": timezone.now(),
            "search": search,
            "query": query,
            "accounts": selectors.accounts_matching(query=query, by=request.user)
            if query
            else None,
            "form": form or forms.RoleForm(initial={"username": request.GET.get("username", "")}),
            "invite_form": invite_form or forms.InviteForm(),
            "invitation": invitation,
            "valid_days": VALID_FOR.days,
            "mail_sent": mail_sent,
        },
        status=422 if (form and form.errors) or (invite_form and invite_form.errors) else 200,
    )


def _invitation_show(
    request: AuthenticatedHttpRequest, tournament: Tournament, made: services.Invitation
) -> HttpResponse:
    """Back to the staff page: "Invitation sent to …", the same for every address; where the
    site sends no mail, with the link, shown once, to pass on."""
    email = made.invitation.email
    if made.url is None:
        messages.success(request, _("Invitation sent to %(email)s.") % {"email": email})
    else:
        request.session[INVITATION_SESSION_KEY] = {
            "slug": tournament.slug,
            "pk": made.invitation.pk,
            "url": made.url,
            "name": made.invitation.name,
            "email": email,
        }
    return redirect("adjudication:staff", tournament.slug)


@login_required
@require_http_methods(["GET", "POST"])
def staff(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """The staff page; a POST offers a role to the account of a user name, the same answer
    whether it has one (the organiser's own takes it at once)."""
    tournament = tournament_for(request, slug, ORGANISER)
    if request.method == "GET":
        return _staff_page(request, tournament)
    form = forms.RoleForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        entry = _staff_entry(form, tournament)
        if not form.errors:
            done = form_apply(
                request,
                form,
                lambda: services.staff_appoint(
                    tournament=tournament,
                    username=data["username"],
                    role=data["role"],
                    entry=entry,
                    by=request.user,
                ),
            )
            if done is not None and done.grant is not None:
                messages.success(
                    request, _("Appointed: %(who)s.") % {"who": _role_text(done.grant)}
                )
                return redirect("adjudication:staff", slug)
            if done is not None and done.offer is not None:
                messages.success(request, _offer_text(done.offer))
                return redirect("adjudication:staff", slug)
    return _staff_page(request, tournament, form=form)


def _offer_text(offer) -> str:
    """What the organiser is told of an offer made: the same for every user name."""
    return ngettext(
        "Role offered to %(username)s as %(role)s. It is theirs once they accept it, logged in "
        "as %(username)s, under “Your roles” (the user name at the top of every page); the "
        "offer is valid for %(days)d day.",
        "Role offered to %(username)s as %(role)s. It is theirs once they accept it, logged in "
        "as %(username)s, under “Your roles” (the user name at the top of every page); the "
        "offer is valid for %(days)d days.",
        VALID_FOR.days,
    ) % {"username": offer.username, "role": offer.get_role_display(), "days": VALID_FOR.days}


@login_required
@require_POST
def staff_offer_withdraw(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """Withdraw a role offer not yet answered."""
    tournament = tournament_for(request, slug, ORGANISER)
    offer = selectors.role_offer_detail(tournament=tournament, pk=pk)
    return button(
        request,
        lambda: services.role_offer_withdraw(offer=offer, by=request.user),
        _("Offer to %(username)s withdrawn.") % {"username": offer.username},
        redirect("adjudication:staff", slug),
    )


@login_required
@require_POST
def staff_invite(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Invite someone by name and e-mail address: the same answer for every address; the link
    is mailed after it (or, where the site sends no mail, shown to pass on)."""
    tournament = tournament_for(request, slug, ORGANISER)
    form = forms.InviteForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        entry = _staff_entry(form, tournament)
        if not form.errors:
            made = form_apply(
                request,
                form,
                lambda: services.staff_invite(
                    tournament=tournament,
                    name=data["name"],
                    email=data["email"],
                    role=data["role"],
                    entry=entry,
                    address=partial(absolute_url, request),
                    by=request.user,
                ),
            )
            if made is not None:
                return _invitation_show(request, tournament, made)
    return _staff_page(request, tournament, invite_form=form)


@login_required
@require_POST
def staff_invite_again(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    """A fresh link for an open invitation; the earlier one stops working."""
    tournament = tournament_for(request, slug, ORGANISER)
    invitation = selectors.staff_invitation_detail(tournament=tournament, pk=pk)
    try:
        made = services.staff_invite_again(
            invitation=invitation, address=partial(absolute_url, request), by=request.user
        )
    except (ValidationError, PermissionDenied) as error:
        for message in getattr(error, "messages", None) or [str(error)]:
            messages.error(request, message)
        return redirect("adjudication:staff", slug)
    return _invitation_show(request, tournament, made)


@login_required
@require_POST
def staff_invitation_withdraw(
    request: AuthenticatedHttpRequest, slug: str, pk: int
) -> HttpResponse:
    tournament = tournament_for(request, slug, ORGANISER)
    invitation = selectors.staff_invitation_detail(tournament=tournament, pk=pk)
    return button(
        request,
        lambda: services.staff_invitation_withdraw(invitation=invitation, by=request.user),
        _("Invitation of %(email)s withdrawn.") % {"email": invitation.email},
        redirect("adjudication:staff", slug),
    )


@login_required
@require_POST
def staff_revoke(request: AuthenticatedHttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = tournament_for(request, slug, ORGANISER)
    grant = get_object_or_404(selectors.staff_roles(tournament=tournament), pk=pk)
    return button(
        request,
        lambda: services.role_revoke(grant=grant, by=request.user),
        _("No longer: %(who)s.") % {"who": _role_text(grant)},
        redirect("adjudication:staff", slug),
    )
