"""The tournament's staff (TSR 8.2.1): organisers, adjudicators, deputy adjudicators, members of the
arbitration panel and scorekeepers, each with the player they are if they play (TSR 8.5.1). The
organiser appoints them and takes their roles back; a tournament keeps one organiser.
"""

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
    username = serializers.CharField(max_length=150)
    role = StaffRoleField()
    start_number = serializers.IntegerField(
        min_value=1,
        allow_null=True,
        default=None,
        help_text="The player they are, if they play (TSR 8.5.1)",
    )

    def validate(self, data):
        named = Named(self.context["tournament"])
        users = named.users("username", [data["username"]])
        return named.done(
            {
                "user": users[0] if users else None,
                "role": TournamentRole.Role(data["role"]),
                "entry": named.entry(data["start_number"]),
            }
        )


class StaffList(AdjudicationAPIView):
    """The tournament's staff: organisers, adjudicators, deputy adjudicators (who rule on
    complaints in the first instance too, TSR 8.2.1), members of the arbitration panel and
    scorekeepers. POST appoints one (organisers only); for a member of staff who plays, the
    player they are (TSR 8.5.1)."""

    @extend_schema(tags=TAGS, responses={200: StaffSerializer(many=True), **READ_RESPONSES})
    def get(self, request, slug: str):
        grants = selectors.staff_roles(tournament=self.tournament())
        return Response(StaffSerializer(grants, many=True).data)

    @extend_schema(
        tags=TAGS,
        request=RoleGrantSerializer,
        responses={201: StaffSerializer, **WRITE_RESPONSES},
    )
    def post(self, request, slug: str):
        tournament = self.tournament()
        payload = RoleGrantSerializer(data=request.data, context={"tournament": tournament})
        payload.is_valid(raise_exception=True)
        with fields_as_sent(renamed={"entry": "start_number"}):
            grant = services.role_grant(
                tournament=tournament, by=request.user, **payload.validated_data
            )
        grant = selectors.role_detail(tournament=tournament, pk=grant.pk)
        return Response(StaffSerializer(grant).data, status=status.HTTP_201_CREATED)


class StaffDetail(AdjudicationAPIView):
    """DELETE takes a role back (organisers only); a tournament keeps one organiser."""

    @extend_schema(tags=TAGS, responses={204: None, **WRITE_RESPONSES})
    def delete(self, request, slug: str, pk: int):
        grant = selectors.role_detail(tournament=self.tournament(), pk=pk)
        services.role_revoke(grant=grant, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
