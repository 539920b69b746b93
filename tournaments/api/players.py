"""API for the players of a tournament: the list and registration, withdrawal and reinstatement,
and a CSV list imported all or nothing."""

from collections.abc import Mapping
from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import player_import, policies, selectors, services
from tournaments.models import Entry, Tournament
from tournaments.permissions import require, roles_of
from tournaments.roles import ORGANISER


class EntrySerializer(serializers.Serializer):
    """An entry: the name and club as the tournament registered the player, the person's DDV
    number, and the start number."""

    start_number = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    # Digits, or blank: the blank is let through before the pattern is checked, and the schema
    # offers it as the other of ``oneOf``, so the pattern must not match it as well.
    ddv_number = serializers.RegexField(
        r"^\d{1,20}$", source="player.ddv_number", required=False, allow_blank=True
    )
    same_person = serializers.BooleanField(
        write_only=True,
        required=False,
        default=False,
        help_text="The DDV number belongs to a person registered under this name spelt "
        "differently (umlauts, accents): it is the same person. Without it such a number is "
        "refused (400 on `ddv_number`); another name is refused even with it.",
    )
    status = serializers.ChoiceField(choices=Entry.Status.choices, read_only=True)
    arrived_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When the player checked in at the door; for the organisers and the desk "
        "only (null for everyone else, and while the player has not arrived).",
    )
    # Never in public output: the answer carries it only to those who hand out the personal
    # links (``policies.may_read_personal_links``), whom the view names in the context.
    email = serializers.EmailField(
        max_length=254,
        required=False,
        allow_blank=True,
        write_only=True,
        help_text="Where the player's personal link is mailed; blank: none. Shown in answers "
        "only to the organiser and the adjudicator.",
    )

    def to_representation(self, instance):
        data = super().to_representation(instance)
        # Who is at the venue is the desk's to know, not the public's.
        if not self.context.get("shows_arrivals"):
            data["arrived_at"] = None
        if self.context.get("personal_links") and isinstance(instance, Entry):
            data["email"] = instance.email
        return data

    def create(self, validated_data):
        player = validated_data.pop("player", {})
        return services.entry_register(
            tournament=self.context["tournament"],
            **{**validated_data, **player},
        ).entry

    def update(self, instance, validated_data):
        """Correct the registration (``services.entry_update``): what is not sent stays."""
        player = validated_data.pop("player", {})
        fields = {
            "first_name": instance.first_name,
            "last_name": instance.last_name,
            "club": instance.club,
            "ddv_number": instance.player.ddv_number,
            "start_number": instance.start_number,
            "email": instance.email,
            **validated_data,
            **player,
        }
        if fields["start_number"] is None:
            fields["start_number"] = instance.start_number
        return services.entry_update(entry=instance, by=self.context["request"].user, **fields)


def personal_links_context(request, tournament: Tournament) -> dict:
    """``personal_links``: whether the answer may name the players' addresses (the organiser and
    the adjudicator, ``policies.may_read_personal_links``)."""
    refusal = policies.may_read_personal_links(roles=roles_of(request, tournament))
    return {"personal_links": refusal is None}


class EntryList(generics.ListCreateAPIView):
    """The players of a tournament by start number, or those ``q`` finds (a start number, or
    names in any case, with or without accents: "mueller" finds Müller). POST registers one
    (organiser); rounds drawn but not started seat a late entry, moving as few players as
    possible."""

    serializer_class = EntrySerializer
    permission_classes = [AllowAny]
    pagination_class = None

    def tournament(self) -> Tournament:
        """Read once per request (the list, its serializer's context and a POST ask)."""
        if "_tournament" not in self.__dict__:
            self._tournament = selectors.tournament_get(
                slug=self.kwargs["slug"], user=self.request.user
            )
        return self._tournament

    def get_queryset(self):
        return selectors.entry_list(
            tournament=self.tournament(), query=self.request.query_params.get("q", "")[:100]
        )

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "q", str, description="Only the players with this start number or name"
            )
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def get_serializer_context(self) -> Mapping[str, Any]:
        context = {
            **super().get_serializer_context(),
            **personal_links_context(self.request, self.tournament()),
        }
        if self.request.method == "POST":
            return {**context, "tournament": self.tournament()}
        tournament = self.tournament()
        refusal = policies.may_check_in(
            tournament=tournament, roles=roles_of(self.request, tournament)
        )
        return {**context, "shows_arrivals": refusal is None or refusal.field is not None}

    def create(self, request, *args, **kwargs):
        require(request, self.tournament(), ORGANISER)
        return super().create(request, *args, **kwargs)


class EntryStatus(APIView):
    """Withdraw a player (``withdraw``) or take a withdrawn player back (``reinstate``); the
    rounds drawn but not started are re-seated, moving only who must move."""

    permission_classes = [IsAuthenticated]
    actions = {"withdraw": services.entry_withdraw, "reinstate": services.entry_reinstate}

    @extend_schema(request=None, responses=EntrySerializer)
    def post(self, request, slug: str, start_number: int, action: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        require(request, tournament, ORGANISER)
        entry = get_object_or_404(tournament.entries, start_number=start_number)
        change = self.actions[action](entry=entry)
        return Response(EntrySerializer(change.entry).data)


class ImportSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text="CSV, UTF-8, `;` or `,`, with a header row; at most 2 MB and 5000 players"
    )

    def validate_file(self, upload):
        """The same limit as the import page's, named in the message."""
        if message := player_import.size_error(upload.size):
            raise serializers.ValidationError(message)
        return upload


class PlayersImport(APIView):
    """Register every player of a CSV file, or none: a 400 lists every problem by line."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request={"multipart/form-data": ImportSerializer},
        responses={201: EntrySerializer(many=True)},
    )
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user)
        require(request, tournament, ORGANISER)
        upload = ImportSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        imported = services.players_import(
            tournament=tournament, data=upload.validated_data["file"].read()
        )
        return Response(
            EntrySerializer(imported.entries, many=True).data, status=status.HTTP_201_CREATED
        )
