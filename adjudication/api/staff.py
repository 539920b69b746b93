"""The tournament's staff (TSR 8.2.1): organisers, adjudicators, deputy adjudicators, members of the
arbitration panel and scorekeepers, each with the player they are if they play (TSR 8.5.1). The
organiser names them and takes their roles back; a tournament keeps one organiser. Someone with
an account is offered the role by user name: the answer is the same whether the name has an
account, and the role is theirs once they accept it, logged in (the organiser's own user name
takes it at once). Someone is invited by name and e-mail address: the answer is the same for every address (whether it has
an account is not looked up), the link (valid seven days, once) is mailed after it, and the
role is theirs once they accept. Where the site sends no mail, the answer carries the link to
pass on, for every address alike.
"""

from functools import partial

from django.utils.translation import gettext
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from adjudication import policies, selectors, services
from adjudication.api.common import (
    READ_RESPONSES,
    TAGS,
    WRITE_RESPONSES,
    AdjudicationAPIView,
    Named,
    fields_as_sent,
    named_choices,
)
from tournaments.models import TournamentRole
from tournaments.site import absolute_url

StaffRoleField = named_choices("StaffRoleEnum", TournamentRole.Role.values)


class StaffSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(source="user.get_username")
    name = serializers.CharField(source="user.get_full_name", allow_blank=True)
    role = StaffRoleField()
    start_number = serializers.IntegerField(
        source="entry.start_number", allow_null=True, help_text="The player they are, if they play"
    )


class RoleGrantSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        required=False,
        help_text="Someone with an account: its user name, to which the role is offered (your "
        "own: the role is yours at once). Else name and email.",
    )
    name = serializers.CharField(
        max_length=150,
        required=False,
        help_text="Someone invited, with email: first and last name.",
    )
    email = serializers.EmailField(
        max_length=254,
        required=False,
        help_text="Someone invited, with name: where the invitation link is sent.",
    )
    role = StaffRoleField()
    start_number = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        default=None,
        help_text="The player they are, if they play (TSR 8.5.1)",
    )

    def validate(self, data):
        username, name, email = (data.get(field) for field in ("username", "name", "email"))
        if username is not None and (name is not None or email is not None):
            raise serializers.ValidationError(
                {
                    "username": gettext(
                        "Give either a user name, or a name and an e-mail address for someone "
                        "new; not both."
                    )
                }
            )
        if username is None and name is None and email is None:
            raise serializers.ValidationError(
                {
                    "username": gettext(
                        "Give a user name, or a name and an e-mail address for someone new."
                    )
                }
            )
        if username is None and (name is None or email is None):
            field = "name" if name is None else "email"
            raise serializers.ValidationError(
                {field: gettext("Someone new is appointed by name and e-mail address.")}
            )
        named = Named(self.context["tournament"])
        # A user name is not looked up here: the answer is the same whether it has an account.
        person: dict = (
            {"name": name, "email": email} if username is None else {"username": username}
        )
        return named.done(
            {
                **person,
                "role": TournamentRole.Role(data["role"]),
                "entry": named.entry(data["start_number"]),
            }
        )


class StaffInvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.EmailField()
    role = StaffRoleField()
    start_number = serializers.IntegerField(
        source="entry.start_number", allow_null=True, help_text="The player they are, if they play"
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class InvitationMadeSerializer(StaffInvitationSerializer):
    invitation_url = serializers.URLField(
        allow_null=True,
        help_text="Where the site sends no mail: the link to pass on (valid seven days, once). "
        "Null where the link is mailed to the address.",
    )


class RoleOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(
        help_text="As it was given: whether it has an account is not said"
    )
    role = StaffRoleField()
    start_number = serializers.IntegerField(
        source="entry.start_number", allow_null=True, help_text="The player they are, if they play"
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


def _made(made: services.Invitation) -> dict:
    return {**StaffInvitationSerializer(made.invitation).data, "invitation_url": made.url}


class StaffList(AdjudicationAPIView):
    """The tournament's staff: organisers, adjudicators, deputy adjudicators (who rule on
    complaints in the first instance too, TSR 8.2.1), members of the arbitration panel and
    scorekeepers. POST (organisers only) offers a role by ``username`` (202, the offer: the
    same answer whether the name has an account; the role is theirs once they accept it,
    logged in; your own user name: 201, the role at once), or invites someone by ``name`` and
    ``email`` (202, the invitation: the same answer for every address; the role is theirs once
    they accept through the mailed link); for a member of staff who plays, the player they are
    (TSR 8.5.1)."""

    @extend_schema(tags=TAGS, responses={200: StaffSerializer(many=True), **READ_RESPONSES})
    def get(self, request, slug: str):
        grants = selectors.staff_roles(tournament=self.tournament())
        return Response(StaffSerializer(grants, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=RoleGrantSerializer,
        responses={
            201: StaffSerializer,
            202: PolymorphicProxySerializer(
                component_name="StaffOffered",
                serializers=[RoleOfferSerializer, InvitationMadeSerializer],
                resource_type_field_name=None,
            ),
            **WRITE_RESPONSES,
        },
    )
    def post(self, request, slug: str):
        tournament = self.tournament()
        payload = RoleGrantSerializer(data=request.data, context={"tournament": tournament})
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        with fields_as_sent(renamed={"entry": "start_number"}):
            if "username" not in data:
                made = services.staff_invite(
                    tournament=tournament,
                    address=partial(absolute_url, request),
                    by=request.user,
                    **data,
                )
                return Response(_made(made), status=status.HTTP_202_ACCEPTED)
            done = services.staff_appoint(tournament=tournament, by=request.user, **data)
        if done.offer is not None:
            offer = RoleOfferSerializer(done.offer).data
            return Response(offer, status=status.HTTP_202_ACCEPTED)
        assert done.grant is not None  # an appointment is a grant or an offer
        grant = selectors.role_detail(tournament=tournament, pk=done.grant.pk)
        return Response(StaffSerializer(grant).data, status=status.HTTP_201_CREATED)


class StaffDetail(AdjudicationAPIView):
    """DELETE takes a role back (organisers only); a tournament keeps one organiser."""

    @extend_schema(tags=TAGS, responses={204: None, **WRITE_RESPONSES})
    def delete(self, request, slug: str, pk: int):
        grant = selectors.role_detail(tournament=self.tournament(), pk=pk)
        services.role_revoke(grant=grant, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StaffInvitationList(AdjudicationAPIView):
    """The invitations not yet accepted (organisers only), run out or not."""

    @extend_schema(
        tags=TAGS, responses={200: StaffInvitationSerializer(many=True), **READ_RESPONSES}
    )
    def get(self, request, slug: str):
        tournament = self.tournament()
        policies.enforce(policies.may_appoint_staff(tournament=tournament, user=request.user))
        invitations = selectors.staff_invitations(tournament=tournament)
        return Response(StaffInvitationSerializer(invitations, many=True).data)


class StaffInvitationDetail(AdjudicationAPIView):
    """DELETE withdraws an invitation not yet accepted (organisers only): its link then says
    so."""

    @extend_schema(tags=TAGS, responses={204: None, **WRITE_RESPONSES})
    def delete(self, request, slug: str, pk: int):
        invitation = selectors.staff_invitation_detail(tournament=self.tournament(), pk=pk)
        services.staff_invitation_withdraw(invitation=invitation, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StaffInvitationAgain(AdjudicationAPIView):
    """POST invites again (organisers only): a fresh link, mailed as the first was; the earlier
    one stops working. The answer is the new invitation."""

    @extend_schema(
        tags=TAGS, request=None, responses={202: InvitationMadeSerializer, **WRITE_RESPONSES}
    )
    def post(self, request, slug: str, pk: int):
        invitation = selectors.staff_invitation_detail(tournament=self.tournament(), pk=pk)
        made = services.staff_invite_again(
            invitation=invitation, address=partial(absolute_url, request), by=request.user
        )
        return Response(_made(made), status=status.HTTP_202_ACCEPTED)


class StaffOfferList(AdjudicationAPIView):
    """The roles offered by user name and not yet answered (organisers only), run out or
    not, each with the user name as it was given."""

    @extend_schema(tags=TAGS, responses={200: RoleOfferSerializer(many=True), **READ_RESPONSES})
    def get(self, request, slug: str):
        tournament = self.tournament()
        policies.enforce(policies.may_appoint_staff(tournament=tournament, user=request.user))
        offers = selectors.role_offers(tournament=tournament)
        return Response(RoleOfferSerializer(offers, many=True).data)


class StaffOfferDetail(AdjudicationAPIView):
    """DELETE withdraws a role offer not yet answered (organisers only): it can no longer be
    accepted."""

    @extend_schema(tags=TAGS, responses={204: None, **WRITE_RESPONSES})
    def delete(self, request, slug: str, pk: int):
        offer = selectors.role_offer_detail(tournament=self.tournament(), pk=pk)
        services.role_offer_withdraw(offer=offer, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
