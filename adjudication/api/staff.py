"""The tournament's staff (TSR 8.2.1): organisers, adjudicators, deputy adjudicators, members of the
arbitration panel and scorekeepers, each with the player they are if they play (TSR 8.5.1). The
organiser appoints them and takes their roles back; a tournament keeps one organiser. Someone
without an account is appointed by name and e-mail address: the answer carries the invitation
link where they choose a password (valid seven days, once), which is also mailed to them.
"""

from functools import partial

from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from adjudication import selectors, services
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
        help_text="Someone with an account: its user name. Else name and email.",
    )
    name = serializers.CharField(
        max_length=150,
        required=False,
        help_text="Someone new, with email: first and last name. An account is made for them.",
    )
    email = serializers.EmailField(
        max_length=254,
        required=False,
        help_text="Someone new, with name: where the invitation link is sent.",
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
        person: dict = {"name": name, "email": email}
        if username is not None:
            users = named.users("username", [username])
            person = {"user": users[0] if users else None}
        return named.done(
            {
                **person,
                "role": TournamentRole.Role(data["role"]),
                "entry": named.entry(data["start_number"]),
            }
        )


class StaffGrantedSerializer(StaffSerializer):
    invitation_url = serializers.URLField(
        allow_null=True,
        help_text="Someone new: the link where they choose a password, valid seven days and "
        "once, to pass on (it is also mailed to them). Null for an account.",
    )


class InvitationSerializer(serializers.Serializer):
    invitation_url = serializers.URLField(
        help_text="The link where they choose a password, valid seven days and once; earlier "
        "links stop working."
    )


class StaffList(AdjudicationAPIView):
    """The tournament's staff: organisers, adjudicators, deputy adjudicators (who rule on
    complaints in the first instance too, TSR 8.2.1), members of the arbitration panel and
    scorekeepers. POST appoints one (organisers only): someone with an account by ``username``,
    someone new by ``name`` and ``email`` (an account is made, and the answer's
    ``invitation_url`` is where they choose a password); for a member of staff who plays, the
    player they are (TSR 8.5.1)."""

    @extend_schema(tags=TAGS, responses={200: StaffSerializer(many=True), **READ_RESPONSES})
    def get(self, request, slug: str):
        grants = selectors.staff_roles(tournament=self.tournament())
        return Response(StaffSerializer(grants, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=RoleGrantSerializer,
        responses={201: StaffGrantedSerializer, **WRITE_RESPONSES},
    )
    def post(self, request, slug: str):
        tournament = self.tournament()
        payload = RoleGrantSerializer(data=request.data, context={"tournament": tournament})
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        url = None
        with fields_as_sent(renamed={"entry": "start_number"}):
            if "user" in data:
                grant = services.role_grant(tournament=tournament, by=request.user, **data)
            else:
                invitation = services.staff_invite(
                    tournament=tournament,
                    address=partial(absolute_url, request),
                    by=request.user,
                    **data,
                )
                grant, url = invitation.grant, invitation.url
        grant = selectors.role_detail(tournament=tournament, pk=grant.pk)
        return Response(
            {**StaffSerializer(grant).data, "invitation_url": url},
            status=status.HTTP_201_CREATED,
        )


class StaffDetail(AdjudicationAPIView):
    """DELETE takes a role back (organisers only); a tournament keeps one organiser."""

    @extend_schema(tags=TAGS, responses={204: None, **WRITE_RESPONSES})
    def delete(self, request, slug: str, pk: int):
        grant = selectors.role_detail(tournament=self.tournament(), pk=pk)
        services.role_revoke(grant=grant, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StaffInvitation(AdjudicationAPIView):
    """POST: a fresh invitation link for a member of staff who has not chosen a password yet
    (organisers only, for an account that holds no more than its roles in this tournament);
    every earlier link of the account stops working."""

    @extend_schema(
        tags=TAGS, request=None, responses={201: InvitationSerializer, **WRITE_RESPONSES}
    )
    def post(self, request, slug: str, pk: int):
        grant = selectors.role_detail(tournament=self.tournament(), pk=pk)
        invitation = services.staff_invite_again(
            grant=grant, address=partial(absolute_url, request), by=request.user
        )
        return Response({"invitation_url": invitation.url}, status=status.HTTP_201_CREATED)
