"""API for tournaments: the list, creating one (afresh or from an earlier one), one tournament,
its settings and its short name, deleting or archiving it, and allowing tables of five
(TSR 10)."""

from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import policies, selectors, services
from tournaments.models import Entry, Tournament
from tournaments.permissions import roles_of

_OPTIONAL = {"required": False}


class TournamentSerializer(serializers.ModelSerializer):
    archived_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text="When its organiser archived it (off the list unless asked for); null: current",
    )
    entry_count = serializers.IntegerField(read_only=True, help_text="Active players")
    round_count = serializers.IntegerField(read_only=True, help_text="Rounds created so far")
    current_round = serializers.IntegerField(
        read_only=True,
        allow_null=True,
        help_text="The round running, else the last one played, else the next one drawn",
    )
    current_round_status = serializers.CharField(
        read_only=True,
        allow_null=True,
        help_text="Its status: seated, running, finished (playing time over) or closed",
    )

    class Meta:
        model = Tournament
        fields = [
            "slug",
            "name",
            "starts_on",
            "ends_on",
            "venue",
            "status",
            "official",
            "planned_rounds",
            "hands_per_match",
            "match_minutes",
            "allow_tables_of_five",
            "hands_per_match_five",
            "match_minutes_five",
            "allow_tables_of_six_and_seven",
            "springer",
            "seating_method",
            "tiebreaks",
            "counts_for_ranking",
            "is_public",
            "standings_public",
            "club_ranking_players",
            "archived_at",
            "entry_count",
            "round_count",
            "current_round",
            "current_round_status",
        ]


class TournamentDetailSerializer(TournamentSerializer):
    locked = serializers.SerializerMethodField(
        help_text="The settings that can no longer change, each with the reason"
    )

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "locked"]

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_locked(self, tournament: Tournament) -> dict[str, str]:
        return dict(selectors.settings_locks(tournament=tournament).locked)


class TournamentCreateSerializer(serializers.ModelSerializer):
    """A new tournament: its name and first day, and any of its settings; those not given are
    the defaults, or with ``copy_from`` that tournament's."""

    copy_from = serializers.SlugField(
        required=False,
        write_only=True,
        help_text="The short name of a tournament you organise: the settings not given are its",
    )
    copy_players = serializers.BooleanField(
        default=False,
        write_only=True,
        help_text="With copy_from: register its active players again, with the same start "
        "numbers (copy_entries chooses them one by one)",
    )
    copy_entries = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        write_only=True,
        max_length=10000,
        help_text="With copy_from: the start numbers of its players to register again, "
        "withdrawn ones too, with the same start numbers",
    )
    copy_staff = serializers.BooleanField(
        default=False,
        write_only=True,
        help_text="With copy_from: offer its staff their roles again (yours are yours at once; "
        "the others hold theirs once they accept them)",
    )

    class Meta:
        model = Tournament
        fields = [
            "slug",
            *selectors.SETTINGS,
            "copy_from",
            "copy_players",
            "copy_entries",
            "copy_staff",
        ]
        extra_kwargs = {
            "slug": {
                **_OPTIONAL,
                "help_text": "The short name for links; made from the name and year if not "
                "given. It can change until something is printed or a round's seating is "
                "published.",
            },
            "ends_on": {**_OPTIONAL, "help_text": "The last day; the first day if not given"},
        }


class TournamentSettingsSerializer(serializers.ModelSerializer):
    class Meta:
        model = Tournament
        fields = ["slug", *selectors.SETTINGS]
        extra_kwargs = {
            "slug": {
                "help_text": "The short name for links: links printed or shared with the old "
                "one stop working. Fixed once something is printed or a round's seating is "
                "published (400 on slug, with the reason)."
            }
        }


def _refuse(refusal: policies.Refusal | None) -> None:
    if refusal is not None:
        raise PermissionDenied(refusal.message)


class TournamentList(generics.ListAPIView):
    """Tournaments you can see: all public ones, and those where you have a role. Users allowed
    to create tournaments (the Organisers group) create one with POST, and become its
    organiser."""

    serializer_class = TournamentSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        if self.request.query_params.get("archived") in {"true", "1"}:
            return selectors.tournament_list(user=self.request.user).filter(
                archived_at__isnull=False
            )
        return selectors.tournaments_current(user=self.request.user)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "archived",
                bool,
                description="true: the archived tournaments instead of the current ones",
            )
        ]
    )
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentDetailSerializer})
    def post(self, request):
        _refuse(policies.may_create_tournament(user=request.user))
        serializer = TournamentCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        settings = dict(serializer.validated_data)
        copy_from, players = settings.pop("copy_from", ""), settings.pop("copy_players")
        entries, staff = settings.pop("copy_entries", None), settings.pop("copy_staff")
        slug = settings.pop("slug", "")
        if copy_from:
            source = (
                selectors.tournaments_organised(user=request.user).filter(slug=copy_from).first()
            )
            if source is None:
                raise serializers.ValidationError(
                    {"copy_from": [_("You organise no tournament with this short name.")]}
                )
            if entries is None:
                active = source.entries.filter(status=Entry.Status.ACTIVE)
                entries = list(active.values_list("start_number", flat=True)) if players else []
            try:
                tournament = services.tournament_copy(
                    source=source,
                    by=request.user,
                    name=settings.pop("name"),
                    starts_on=settings.pop("starts_on"),
                    ends_on=settings.pop("ends_on", None),
                    slug=slug,
                    entries=entries,
                    staff=staff,
                    changes=settings,
                )
            except DjangoValidationError as error:
                # The start numbers are the service's ``entries``: here ``copy_entries``.
                if hasattr(error, "error_dict") and "entries" in error.error_dict:
                    raise serializers.ValidationError(
                        {"copy_entries": error.message_dict["entries"]}
                    ) from error
                raise
        else:
            tournament = services.tournament_create(**settings, slug=slug, by=request.user)
        created = selectors.tournament_get(slug=tournament.slug, user=request.user)
        return Response(TournamentDetailSerializer(created).data, status=status.HTTP_201_CREATED)


class TournamentDetail(generics.RetrieveAPIView):
    """One tournament, with the settings that can no longer change and why. Its organisers
    change its settings with PATCH (only those given); a setting that would break what was
    drawn or played is refused (400, naming it, with the reason). They delete it with DELETE
    while none of its scoresheets is confirmed (else 400 on ``scoresheets``: archive it
    instead)."""

    serializer_class = TournamentDetailSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_object(self):
        return selectors.tournament_get(slug=self.kwargs["slug"], user=self.request.user)

    @extend_schema(request=TournamentSettingsSerializer, responses=TournamentDetailSerializer)
    def patch(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        _refuse(
            policies.may_change_settings(tournament=tournament, roles=roles_of(request, tournament))
        )
        serializer = TournamentSettingsSerializer(tournament, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        change = services.tournament_update(
            tournament=tournament, by=request.user, changes=serializer.validated_data
        )
        changed = selectors.tournament_get(slug=change.tournament.slug, user=request.user)
        return Response(TournamentDetailSerializer(changed).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        services.tournament_delete(tournament=tournament, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentArchive(APIView):
    """Archive the tournament with POST: off the list of tournaments (``?archived=true`` lists
    the archived ones) and the home page, still at its address and in the ranking lists; take
    it out of the archive with DELETE. Its organisers; either twice changes nothing."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=TournamentDetailSerializer)
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        services.tournament_archive(tournament=tournament, by=request.user)
        return Response(
            TournamentDetailSerializer(selectors.tournament_get(slug=slug, user=request.user)).data
        )

    @extend_schema(request=None, responses=TournamentDetailSerializer)
    def delete(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        services.tournament_unarchive(tournament=tournament, by=request.user)
        return Response(
            TournamentDetailSerializer(selectors.tournament_get(slug=slug, user=request.user)).data
        )


class TablesOfFive(APIView):
    """Allow tables of five (TSR 10) for the rest of the tournament, where the active players do
    not divide into tables of four (TSR 8.3.1): organisers. Rounds played or running keep their
    tables; a round drawn ahead that waits for a substitute is seated again."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=TournamentDetailSerializer)
    def post(self, request, slug: str):
        tournament = selectors.tournament_get(slug=slug, user=request.user, counts=False)
        services.tournament_tables_of_five_allow(tournament=tournament, by=request.user)
        return Response(
            TournamentDetailSerializer(selectors.tournament_get(slug=slug, user=request.user)).data
        )
