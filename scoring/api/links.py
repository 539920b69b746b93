"""A table's private links through the API: every seat's, for the organisers and adjudicators
who hand them out again (``policies.may_read_seat_links``)."""

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import policies
from scoring.api.access import AccountOnly, SeatKeyAuthentication
from tournaments import policies as tournament_policies
from tournaments import selectors as tournament_selectors
from tournaments.permissions import roles_of
from tournaments.site import absolute_url, site_warning


class SeatLinkSerializer(serializers.Serializer):
    position = serializers.IntegerField(
        help_text="Seat 1 deals first; seat 4 (at a table of five seat 5) keeps the sheet unless "
        "it was handed over"
    )
    start_number = serializers.IntegerField()
    name = serializers.CharField()
    link = serializers.URLField(
        help_text="The seat's private link to the table's scoresheet (`/s/<key>/`, its key "
        "also the `X-Seat-Key` of this API), at the address the phones in the hall reach "
        "(SITE_URL when it is set). Whoever holds it acts as that seat: hand it only to its "
        "player"
    )


class TableLinksSerializer(serializers.Serializer):
    tournament = serializers.SlugField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    seats = SeatLinkSerializer(many=True, help_text="In seat order")
    warning = serializers.CharField(
        allow_null=True,
        help_text="Set when the links point at the server's own machine (a loopback address "
        "such as 127.0.0.1 or localhost, SITE_URL unset or set to one), which no phone in the "
        "hall can open: what to do, in the language asked for; null when the phones can open them",
    )


class TableLinks(APIView):
    """Every seat's private link to one table's scoresheet, with its player: for the
    tournament's organisers and adjudicators, to hand a link out again (a slip lost, a phone
    changed). Refused to everyone else, a seat's own key included, and to those of them who
    play at this table."""

    # A seat's key is recognised so that it is refused (403), not taken for a visitor (401).
    authentication_classes = [TokenAuthentication, SeatKeyAuthentication, SessionAuthentication]
    permission_classes = [AccountOnly]

    @extend_schema(
        tags=["scoresheets"],
        # Accounts only (a seat's key is refused). drf-spectacular puts this list in the
        # operation's security as it is, so it takes requirement objects; its hint says names.
        auth=[{"tokenAuth": []}, {"cookieAuth": []}],  # type: ignore[list-item]
        responses={
            200: TableLinksSerializer,
            401: OpenApiResponse(description="Not logged in"),
            403: OpenApiResponse(
                description="Not an organiser or adjudicator of the tournament, one who plays "
                "at this table (the reason names who reads them instead), or a seat's key"
            ),
            404: OpenApiResponse(description="No such tournament, round or table"),
        },
    )
    def get(self, request, slug: str, number: int, table: int):
        tournament = tournament_selectors.tournament_get(slug=slug, user=request.user)
        roles = roles_of(request, tournament)
        tournament_policies.enforce(policies.may_read_seat_links(roles=roles))
        round_ = tournament_selectors.round_get(tournament=tournament, number=number)
        row = tournament_selectors.table_get(round=round_, number=table)
        # Not to staff who play at this table (another member of staff reads them).
        tournament_policies.enforce(
            policies.may_read_seat_links(roles=roles, table=row.table, user=request.user)
        )
        tokens = tournament_selectors.seat_tokens(table=row.table)
        return Response(
            TableLinksSerializer(
                {
                    "tournament": tournament.slug,
                    "round": round_.number,
                    "table": row.table.number,
                    "seats": [
                        {
                            "position": seat.position,
                            "start_number": seat.entry.start_number,
                            "name": seat.entry.name,
                            "link": absolute_url(
                                request, reverse("scoring:sheet-link", args=[tokens[seat.position]])
                            ),
                        }
                        for seat in row.seats
                    ],
                    "warning": site_warning(request),
                }
            ).data
        )
