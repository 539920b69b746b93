"""API for the ranking lists across tournaments, their keeping and the requests: public
reads, a ranking list with ETags."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from rankings import policies, selectors
from rankings.models import RankingAdmission, RankingList
from rankings.services import admissions
from tournaments import caching
from tournaments.api.common import etag_response
from tournaments.policies import enforce
from tournaments.selectors.tournaments import tournament_get, user_roles


class RankingListSerializer(serializers.ModelSerializer):
    class Meta:
        model = RankingList
        fields = ["slug", "name", "months", "min_rounds", "built_for", "version"]


class RankingLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True, help_text="null: too few rounds yet")
    player_id = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.name")
    club = serializers.CharField(source="player.club")
    rounds = serializers.IntegerField()
    points = serializers.IntegerField()
    average = serializers.FloatField()


class RankingDetailSerializer(RankingListSerializer):
    lines = serializers.SerializerMethodField()

    class Meta(RankingListSerializer.Meta):
        fields = [*RankingListSerializer.Meta.fields, "lines"]

    @extend_schema_field(RankingLineSerializer(many=True))
    def get_lines(self, ranking) -> list[dict]:
        lines = RankingLineSerializer(selectors.ranking_lines(ranking_list=ranking), many=True)
        # many=True makes a ListSerializer, whose data is a list; the stubs do not know it.
        return lines.data  # type: ignore[return-value]


class RankingLists(generics.ListAPIView):
    """The ranking lists across tournaments."""

    serializer_class = RankingListSerializer
    permission_classes = [AllowAny]
    pagination_class = None

    def get_queryset(self):
        return selectors.ranking_lists(user=self.request.user)


class RankingDetail(APIView):
    """A ranking list: average points per round over the confirmed rounds of the tournaments
    finished in the last ``months`` months; ranked from ``min_rounds`` rounds. ETag as for the
    standings."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RankingDetailSerializer, 304: None})
    def get(self, request, slug: str):
        ranking = selectors.ranking_get(slug=slug, user=request.user)

        def build() -> bytes:
            key = f"ranking-json:{ranking.pk}:{ranking.version}"
            body = caching.versioned_get(key)
            if body is None:
                body = JSONRenderer().render(RankingDetailSerializer(ranking).data)
                caching.versioned_put(key, body)
            return body

        return etag_response(request, f'"api-ranking-{ranking.pk}-{ranking.version}"', build)


# The keeping of a list: maintainers and admissions ------------------------------------------


class CountedSerializer(serializers.Serializer):
    rounds = serializers.IntegerField()
    points = serializers.IntegerField()
    status = serializers.CharField()


class ChangeSerializer(serializers.Serializer):
    player_id = serializers.IntegerField(source="change.player_id")
    name = serializers.CharField(source="player.name", default="")
    then = CountedSerializer(source="change.then", allow_null=True, help_text="null: not in it")
    now = CountedSerializer(source="change.now", allow_null=True, help_text="null: not any more")


class AdmissionSerializer(serializers.Serializer):
    tournament = serializers.SlugField(source="tournament.slug")
    tournament_name = serializers.CharField(source="tournament.name")
    ends_on = serializers.DateField(source="tournament.ends_on")
    status = serializers.CharField()
    requested_by = serializers.CharField(
        source="requested_by.get_username", default=None, allow_null=True
    )
    requested_at = serializers.DateTimeField(allow_null=True)
    decided_by = serializers.CharField(
        source="decided_by.get_username",
        default=None,
        allow_null=True,
        help_text="null: admitted when the lists got maintainers, or not yet decided",
    )
    decided_at = serializers.DateTimeField(allow_null=True)
    reason = serializers.CharField()


class AdmissionChangesSerializer(serializers.Serializer):
    tournament = serializers.SlugField(source="admission.tournament.slug")
    changes = ChangeSerializer(source="lines", many=True)


class LogSerializer(serializers.Serializer):
    kind = serializers.CharField(source="entry.kind")
    tournament = serializers.SlugField(source="entry.tournament.slug", default=None)
    tournament_name = serializers.CharField(source="entry.tournament_name")
    by = serializers.CharField(source="entry.by_name", help_text="empty: nobody (the migration)")
    at = serializers.DateTimeField(source="entry.at")
    reason = serializers.CharField()
    maintainer = serializers.CharField(source="entry.maintainer")


class CriteriaSerializer(serializers.Serializer):
    months = serializers.IntegerField()
    min_players = serializers.IntegerField(help_text="active entries a tournament needs")
    min_rounds = serializers.IntegerField(help_text="closed rounds a tournament needs")
    tables_of_four_only = serializers.BooleanField()
    official_only = serializers.BooleanField(
        help_text="only tournaments marked official, played by the TSR (TSR 8.1.1)"
    )


class KeepingSerializer(serializers.Serializer):
    criteria = CriteriaSerializer()
    maintainers = serializers.SerializerMethodField()
    maintains = serializers.BooleanField(help_text="you maintain this list")
    admitted = AdmissionSerializer(many=True, help_text="the public: public tournaments only")
    pending = AdmissionSerializer(many=True, help_text="the maintainers only; else empty")
    changes = AdmissionChangesSerializer(
        many=True, help_text="results changed since admission: the maintainers only"
    )
    log = LogSerializer(many=True, help_text="newest first; the public: decisions only")

    def get_maintainers(self, keeping) -> list[str]:
        return [user.get_username() for user in keeping.maintainers]


class RankingAdmissions(APIView):
    """How a list is kept: its criteria, maintainers, admitted tournaments and log; to its
    maintainers also the pending requests and the results changed since admission."""

    permission_classes = [AllowAny]

    @extend_schema(responses=KeepingSerializer)
    def get(self, request, slug: str):
        ranking = selectors.ranking_get(slug=slug, user=request.user)
        keeping = selectors.ranking_keeping(ranking_list=ranking, user=request.user)
        return Response(KeepingSerializer(keeping).data)


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False, allow_blank=True, default="", trim_whitespace=False
    )


class RankingDecision(APIView):
    """A maintainer admits (again, with the changed results) or declines a tournament (the
    reason required); one who is on the tournament's staff or asked himself gets 403 with the
    reason, a tournament that breaks a criterion 400 naming each."""

    permission_classes = [IsAuthenticated]
    actions = {
        "admit": admissions.ranking_admission_admit,
        "decline": admissions.ranking_admission_decline,
    }

    @extend_schema(request=ReasonSerializer, responses=AdmissionSerializer)
    def post(self, request, slug: str, tournament: str, action: str):
        ranking = selectors.ranking_get(slug=slug, user=request.user)
        admission = selectors.admission_get(
            ranking_list=ranking, tournament_slug=tournament, user=request.user
        )
        body = ReasonSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        admission = self.actions[action](
            admission=admission, by=request.user, reason=body.validated_data["reason"]
        )
        return Response(AdmissionSerializer(admission).data)


class MaintainerSerializer(serializers.Serializer):
    user = serializers.CharField(help_text="user name or e-mail address", max_length=254)


class RankingMaintainers(APIView):
    """A list's maintainers (public); its maintainers appoint another by user name or e-mail
    address."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        responses=inline_serializer(
            "Maintainers", {"maintainers": serializers.ListField(child=serializers.CharField())}
        )
    )
    def get(self, request, slug: str):
        ranking = selectors.ranking_get(slug=slug, user=request.user)
        names = ranking.maintainers.order_by("username").values_list("username", flat=True)
        return Response({"maintainers": list(names)})

    @extend_schema(request=MaintainerSerializer, responses={201: MaintainerSerializer})
    def post(self, request, slug: str):
        ranking = selectors.ranking_get(slug=slug, user=request.user)
        body = MaintainerSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        user = admissions.ranking_maintainer_add(
            ranking_list=ranking, who=body.validated_data["user"], by=request.user
        )
        return Response({"user": user.get_username()}, status=status.HTTP_201_CREATED)


class RankingMaintainer(APIView):
    """Remove a maintainer (yourself too); a list keeps at least one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, slug: str, username: str):
        ranking = selectors.ranking_get(slug=slug, user=request.user)
        enforce(policies.may_change_maintainers(ranking_list=ranking, user=request.user))
        user = get_object_or_404(ranking.maintainers, username=username)
        admissions.ranking_maintainer_remove(ranking_list=ranking, user=user, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class RankingRequestSerializer(serializers.Serializer):
    list = serializers.SlugField(help_text="the ranking list's short name", max_length=80)


class TournamentRankingLineSerializer(serializers.Serializer):
    list = serializers.SlugField(source="ranking_list.slug")
    list_name = serializers.CharField(source="ranking_list.name")
    official_only = serializers.BooleanField(
        source="ranking_list.tournament_official_only",
        help_text="the list admits official tournaments only (TSR 8.1.1)",
    )
    status = serializers.CharField(source="admission.status", default=None, allow_null=True)
    reason = serializers.CharField(source="admission.reason", default="")


class RankingRequests(APIView):
    """The tournament's requests to the ranking lists, for its organisers: each list and its
    admission; ``POST`` asks a list to admit the tournament."""

    permission_classes = [IsAuthenticated]

    def _tournament(self, request, slug: str):
        tournament = tournament_get(slug=slug, user=request.user, counts=False)
        roles = user_roles(user=request.user, tournament=tournament)
        enforce(policies.may_request_admission(tournament=tournament, roles=roles))
        return tournament

    @extend_schema(responses=TournamentRankingLineSerializer(many=True))
    def get(self, request, slug: str):
        tournament = self._tournament(request, slug)
        lines = selectors.tournament_admissions(tournament=tournament)
        return Response(TournamentRankingLineSerializer(lines, many=True).data)

    @extend_schema(request=RankingRequestSerializer, responses={201: AdmissionSerializer})
    def post(self, request, slug: str):
        tournament = self._tournament(request, slug)
        body = RankingRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        ranking = (
            selectors.ranking_lists(user=request.user)
            .filter(slug=body.validated_data["list"])
            .first()
        )
        if ranking is None:
            raise serializers.ValidationError({"list": gettext("There is no such ranking list.")})
        admission = admissions.ranking_admission_request(
            ranking_list=ranking, tournament=tournament, by=request.user
        )
        return Response(AdmissionSerializer(admission).data, status=status.HTTP_201_CREATED)


class RankingRequestWithdraw(APIView):
    """The organiser withdraws the tournament's request to a list before it is decided."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=AdmissionSerializer)
    def post(self, request, slug: str, ranking: str):
        tournament = tournament_get(slug=slug, user=request.user, counts=False)
        ranking_list = selectors.ranking_get(slug=ranking, user=request.user)
        admission = get_object_or_404(
            RankingAdmission.objects.select_related("tournament", "ranking_list"),
            ranking_list=ranking_list,
            tournament=tournament,
        )
        admission = admissions.ranking_admission_withdraw(admission=admission, by=request.user)
        return Response(AdmissionSerializer(admission).data)
