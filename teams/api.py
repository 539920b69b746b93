"""API for team competitions: a league's season or a team championship, its teams and their
players, its match days (each a tournament: its rounds, tables and scoresheets are the
tournaments and scoring APIs', unchanged) with their groups, line-ups and knock-out decisions,
the season table and the bracket. Thin views over ``teams.selectors`` and ``teams.services``.

Reading is public where the competition is (a hidden one is a 404 to everyone but its
organisers); every write is its organisers' (403 with the reason for everyone else, 401 without
an account). A request naming a field that does not exist is refused (400 on that field), as is
any field no value of the kind can hold.

Match points are fractions: tied teams share the points of their places (three teams sharing
places 2 to 4 get 2 each, three sharing places 1 to 3 get 3 each, two sharing 2 and 3 get 2½).
The API writes them exactly, as a string: ``"4"``, ``"5/2"``, ``"7/3"`` (``match_points_text``).
"""

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import exceptions, generics, serializers, status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api_base.parsers import LimitedJSONParser
from teams import policies, selectors, services
from teams.models import (
    COMPETITION_SETTINGS,
    MAX_MEMBERS,
    MOST_PLANNED_MATCH_DAYS,
    Competition,
    GroupTeam,
    MatchDay,
    Team,
    TeamMember,
)
from tournaments.forms import error_messages
from tournaments.models import MAX_ROUNDS
from tournaments.policies import enforce

MOST_MATCH_DAYS = MOST_PLANNED_MATCH_DAYS
MOST_GROUPS = 64  # 256 teams on one match day
MOST_IDS = 8  # a group names four teams; more is refused by the service with the rule


def match_points_text(value: Fraction | None) -> str | None:
    """A match-point total exactly: "4", "5/2", "7/3" (None: no sheet confirmed yet)."""
    return None if value is None else str(value)


@extend_schema_field(
    {
        "type": "string",
        "nullable": True,
        "pattern": r"^\d+(/\d+)?$",
        "description": 'Match points, exactly, as a fraction: "4", "5/2" (2½), "7/3"',
    }
)
class MatchPointsField(serializers.Field):
    def to_representation(self, value: Fraction | None) -> str | None:
        return match_points_text(value)


def _unknown_refused(fields: Mapping[str, serializers.Field], data: Any) -> None:
    """A field the request sends that the serializer does not take is refused, named (DRF
    would drop it silently): one that does not exist, or one that is only read."""
    if not isinstance(data, dict):
        return
    refused = {}
    for key in sorted(data, key=str):
        if key not in fields:
            refused[str(key)] = [_("This field does not exist.")]
        elif fields[key].read_only:
            refused[str(key)] = [_("This field cannot be changed here.")]
    if refused:
        raise serializers.ValidationError(refused)


class StrictSerializer(serializers.Serializer):
    """A request body whose fields are all known: see ``_unknown_refused``."""

    def to_internal_value(self, data: Any) -> Any:
        _unknown_refused(self.fields, data)
        return super().to_internal_value(data)


class StrictModelSerializer(serializers.ModelSerializer):
    def to_internal_value(self, data: Any) -> Any:
        _unknown_refused(self.fields, data)
        return super().to_internal_value(data)


@contextmanager
def _name_errors() -> Iterator[None]:
    """A team's name taken in its competition (a constraint of two columns, which Django reports
    on no field) is an error of the ``name`` sent."""
    try:
        yield
    except DjangoValidationError as error:
        if hasattr(error, "error_dict") and NON_FIELD_ERRORS in error.error_dict:
            raise serializers.ValidationError(
                {
                    ("name" if field == NON_FIELD_ERRORS else field): errors
                    for field, errors in error.message_dict.items()
                }
            ) from error
        raise


def _competition(request, slug: str) -> Competition:
    return selectors.competition_get(slug=slug, user=request.user)


def _managed(request, slug: str) -> Competition:
    """The competition, for a write: its organisers only (403 with who may, before the
    request's body is looked at)."""
    competition = _competition(request, slug)
    enforce(policies.may_manage_competition(competition=competition, user=request.user))
    return competition


def _team(competition: Competition, team_id: int) -> Team:
    return get_object_or_404(competition.teams.select_related("competition"), pk=team_id)


# Competitions ---------------------------------------------------------------------------------


class CompetitionSerializer(StrictModelSerializer):
    """A league's season (``kind`` league) or a team championship (``championship``) and its
    settings."""

    class Meta:
        model = Competition
        fields = ["slug", *COMPETITION_SETTINGS]
        read_only_fields = ["slug"]
        extra_kwargs = {
            "promotion_places": {"max_value": 64},
            "relegation_places": {"max_value": 64},
        }


class CompetitionList(generics.ListAPIView):
    """The team competitions you can see: the public ones and those you organise, newest first.
    POST creates one (whoever may create tournaments, the Organisers group); you become its
    organiser. Its short name (``slug``) is made from the name and season."""

    serializer_class = CompetitionSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [LimitedJSONParser]

    def get_queryset(self):
        return selectors.competitions_visible(user=self.request.user)

    @extend_schema(request=CompetitionSerializer, responses={201: CompetitionSerializer})
    def post(self, request):
        enforce(policies.may_create_competition(user=request.user))
        payload = CompetitionSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        settings = dict(payload.validated_data)
        competition = services.competition_create(
            name=settings.pop("name"), by=request.user, **settings
        )
        return Response(CompetitionSerializer(competition).data, status=status.HTTP_201_CREATED)


class CompetitionDetail(APIView):
    """One team competition and its settings. Its organisers change them with PATCH (only
    those given; the kind only while it has no match day)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [LimitedJSONParser]

    @extend_schema(responses=CompetitionSerializer)
    def get(self, request, slug: str):
        return Response(CompetitionSerializer(_competition(request, slug)).data)

    @extend_schema(request=CompetitionSerializer, responses=CompetitionSerializer)
    def patch(self, request, slug: str):
        competition = _managed(request, slug)
        payload = CompetitionSerializer(competition, data=request.data, partial=True)
        payload.is_valid(raise_exception=True)
        changed = services.competition_update(
            competition=competition, by=request.user, **payload.validated_data
        )
        return Response(CompetitionSerializer(changed).data)


class OrganiserSerializer(StrictSerializer):
    username = serializers.CharField(
        max_length=254,
        help_text="The user name (or e-mail address) of the account offered to organise it",
    )


class OrganiserOfferSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField(
        source="who", help_text="As it was given: whether it has an account is not said"
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()


class CompetitionOrganisers(APIView):
    """Offer an account, by user name, to organise the competition (and so its match days):
    its organisers. The answer is the same whether the name has an account (202, the offer);
    the account organises it once it accepts, logged in."""

    permission_classes = [IsAuthenticated]
    parser_classes = [LimitedJSONParser]

    @extend_schema(request=OrganiserSerializer, responses={202: OrganiserOfferSerializer})
    def post(self, request, slug: str):
        # Asked first, so that a stranger learns nothing of the competition.
        competition = _managed(request, slug)
        payload = OrganiserSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        try:
            offer = services.competition_organiser_offer(
                competition=competition, who=payload.validated_data["username"], by=request.user
            )
        except DjangoValidationError as error:
            raise serializers.ValidationError({"username": error_messages(error)}) from error
        return Response(OrganiserOfferSerializer(offer).data, status=status.HTTP_202_ACCEPTED)


# Teams and their players ----------------------------------------------------------------------


class MemberSerializer(serializers.Serializer):
    player_id = serializers.IntegerField(source="player.pk", help_text="The person's record")
    first_name = serializers.CharField(source="player.first_name")
    last_name = serializers.CharField(source="player.last_name")
    club = serializers.CharField(source="player.club")
    ddv_number = serializers.CharField(source="player.ddv_number")
    captain = serializers.BooleanField(source="is_captain")


class TeamSerializer(StrictSerializer):
    """A team: its name and club, and its players, the captain first (four or more; four play
    each round, the others are reserves)."""

    id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(max_length=120)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    players = MemberSerializer(source="members.all", many=True, read_only=True)


class TeamChangeSerializer(TeamSerializer):
    name = serializers.CharField(max_length=120, required=False)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)


class TeamList(APIView):
    """The competition's teams with their players. POST adds a team (its organisers); its
    players are added one by one (``…/teams/{team_id}/players``)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [LimitedJSONParser]

    @extend_schema(responses=TeamSerializer(many=True))
    def get(self, request, slug: str):
        competition = _competition(request, slug)
        return Response(TeamSerializer(selectors.teams_of(competition=competition), many=True).data)

    @extend_schema(request=TeamSerializer, responses={201: TeamSerializer})
    def post(self, request, slug: str):
        competition = _managed(request, slug)
        payload = TeamSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        with _name_errors():
            team = services.team_create(
                competition=competition, by=request.user, **payload.validated_data
            )
        return Response(TeamSerializer(team).data, status=status.HTTP_201_CREATED)


def _team_data(team: Team) -> dict:
    fresh = next(t for t in selectors.teams_of(competition=team.competition) if t.pk == team.pk)
    return TeamSerializer(fresh).data


class TeamDetail(APIView):
    """One team with its players. Its competition's organisers rename it or change its club
    (PATCH), or remove it while it has played in no group (DELETE)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [LimitedJSONParser]

    @extend_schema(responses=TeamSerializer)
    def get(self, request, slug: str, team_id: int):
        return Response(_team_data(_team(_competition(request, slug), team_id)))

    @extend_schema(request=TeamChangeSerializer, responses=TeamSerializer)
    def patch(self, request, slug: str, team_id: int):
        team = _team(_managed(request, slug), team_id)
        payload = TeamChangeSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        with _name_errors():
            services.team_update(team=team, by=request.user, **payload.validated_data)
        return Response(_team_data(team))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, slug: str, team_id: int):
        team = _team(_managed(request, slug), team_id)
        services.team_delete(team=team, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PlayerAddSerializer(StrictSerializer):
    """The player to add: a known person by ``player_id`` or by ``ddv_number`` alone; or by
    ``first_name`` and ``last_name`` (with ``club`` and ``ddv_number``) as a tournament
    registers one: the known person if there is one, else a new one."""

    player_id = serializers.IntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="A person's record"
    )
    ddv_number = serializers.RegexField(r"^\d{1,20}$", required=False, allow_blank=True)
    first_name = serializers.CharField(max_length=100, required=False)
    last_name = serializers.CharField(max_length=100, required=False)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    captain = serializers.BooleanField(
        default=False, help_text="The team's captain from now on (it has one)"
    )


class TeamPlayers(APIView):
    """Add a player to the team (its competition's organisers): a person plays for one team
    per competition, a team names at most twelve."""

    permission_classes = [IsAuthenticated]
    parser_classes = [LimitedJSONParser]

    @extend_schema(request=PlayerAddSerializer, responses={201: TeamSerializer})
    def post(self, request, slug: str, team_id: int):
        team = _team(_managed(request, slug), team_id)
        payload = PlayerAddSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.team_player_add(team=team, by=request.user, **payload.validated_data)
        return Response(_team_data(team), status=status.HTTP_201_CREATED)


class TeamPlayer(APIView):
    """Take a player off the team (its competition's organisers), unless he is in a line-up of
    a match day."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=TeamSerializer)
    def delete(self, request, slug: str, team_id: int, player_id: int):
        team = _team(_managed(request, slug), team_id)
        member = get_object_or_404(
            TeamMember.objects.select_related("team__competition", "player"),
            team=team,
            player_id=player_id,
        )
        services.team_member_remove(member=member, by=request.user)
        return Response(_team_data(team))


class CaptainSerializer(StrictSerializer):
    player_id = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class TeamCaptain(APIView):
    """Make one of the team's players its captain (its competition's organisers)."""

    permission_classes = [IsAuthenticated]
    parser_classes = [LimitedJSONParser]

    @extend_schema(request=CaptainSerializer, responses=TeamSerializer)
    def post(self, request, slug: str, team_id: int):
        team = _team(_managed(request, slug), team_id)
        payload = CaptainSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        member = TeamMember.objects.filter(
            team=team, player_id=payload.validated_data["player_id"]
        ).first()
        if member is None:
            raise serializers.ValidationError(
                {"player_id": [_("This person does not play for %(team)s.") % {"team": team.name}]}
            )
        services.team_captain_set(member=member, by=request.user)
        return Response(_team_data(team))


# Match days -----------------------------------------------------------------------------------


class MatchDaySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    stage = serializers.ChoiceField(choices=MatchDay.Stage.choices)
    tournament = serializers.SlugField(
        source="tournament.slug",
        help_text="The match day's tournament: its rounds, tables and scoresheets are at "
        "/api/v1/tournaments/{tournament}/…",
    )
    starts_on = serializers.DateField(source="tournament.starts_on")
    venue = serializers.CharField(source="tournament.venue")
    rounds = serializers.IntegerField(source="tournament.planned_rounds")
    double = serializers.BooleanField(
        help_text="A double match day: the first half of the rounds and the second, each "
        "scoring its own match points 4, 3, 2, 1"
    )


class HalfSerializer(serializers.Serializer):
    points = serializers.IntegerField(help_text="Its players' points in this half")
    match_points = MatchPointsField(help_text="4, 3, 2, 1 by the points in this half alone")


class GroupTeamSerializer(serializers.Serializer):
    team_id = serializers.IntegerField(source="team.pk")
    name = serializers.CharField(source="team.name")
    points = serializers.IntegerField(
        help_text="Its players' points on the confirmed sheets, penalties included"
    )
    match_points = MatchPointsField(
        help_text="4, 3, 2, 1 by the points in the group; null while no sheet is confirmed"
    )
    place = serializers.IntegerField(help_text="Its place in the group by points")
    through = serializers.BooleanField(
        allow_null=True,
        help_text="Knock-out ties: goes through; null in a group, while the tie is not over, "
        "or while it is level at the cut and the director has not decided",
    )
    halves = HalfSerializer(
        many=True,
        help_text="A double match day: the two halves, each scored on its own (match_points "
        "is their sum); empty otherwise",
    )


class GroupSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="group.number")
    advance = serializers.IntegerField(
        source="group.advance", help_text="Knock-out ties: how many teams go through; 0: a group"
    )
    complete = serializers.BooleanField(help_text="Every sheet confirmed: the result is final")
    level_at_cut = serializers.BooleanField(
        help_text="A knock-out tie level at the cut: the director decides (…/ties/{team_id}/decide)"
    )
    teams = GroupTeamSerializer(source="rows", many=True, help_text="By points")


class MatchDayDetailSerializer(MatchDaySerializer):
    complete = serializers.BooleanField(
        help_text="Every planned round drawn and every sheet confirmed: the match points are final"
    )
    groups = GroupSerializer(many=True)


class MatchDayCreateSerializer(StrictSerializer):
    """A new match day, played as a tournament of its own."""

    starts_on = serializers.DateField()
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, default=4)
    stage = serializers.ChoiceField(choices=MatchDay.Stage.choices, default=MatchDay.Stage.GROUPS)
    groups = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
            max_length=MOST_IDS,
        ),
        max_length=MOST_GROUPS,
        required=False,
        allow_null=True,
        help_text="The teams (ids) of each group, four each; not given: drawn at random",
    )
    advance = serializers.IntegerField(
        min_value=1,
        max_value=3,
        default=1,
        help_text="Knock-out rounds: how many teams of each tie go through",
    )
    double = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="A double match day (an even number of rounds, in two halves each scored "
        "4, 3, 2, 1); not given: as the season plan says, else not",
    )


def _match_day_data(match_day: MatchDay) -> dict:
    return MatchDayDetailSerializer(
        {
            "number": match_day.number,
            "stage": match_day.stage,
            "double": match_day.double,
            "tournament": match_day.tournament,
            "complete": selectors.match_day_complete(match_day=match_day),
            "groups": selectors.group_results(match_day=match_day),
        }
    ).data


class MatchDayList(APIView):
    """The competition's match days in order (a team championship's group stage and its
    knock-out rounds). POST adds one (its organisers): a tournament whose draw seats its
    groups of four teams, one player of each team at every table; each team's line-up starts
    as its first four players (the captain first) for every round. A team that names fewer
    than four players cannot play: 400 on ``groups`` naming every such team, nothing made."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [LimitedJSONParser]

    @extend_schema(responses=MatchDaySerializer(many=True))
    def get(self, request, slug: str):
        competition = _competition(request, slug)
        days = selectors.match_days_of(competition=competition)
        return Response(MatchDaySerializer(days, many=True).data)

    @extend_schema(request=MatchDayCreateSerializer, responses={201: MatchDayDetailSerializer})
    def post(self, request, slug: str):
        competition = _managed(request, slug)
        payload = MatchDayCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = dict(payload.validated_data)
        groups = data.pop("groups", None)
        chosen = None
        if groups is not None:
            teams = {team.pk: team for team in competition.teams.all()}
            unknown = [pk for group in groups for pk in group if pk not in teams]
            if unknown:
                raise serializers.ValidationError(
                    {
                        "groups": [
                            _("No team of this competition has the number %(id)d.")
                            % {"id": unknown[0]}
                        ]
                    }
                )
            chosen = [[teams[pk] for pk in group] for group in groups]
        match_day = services.match_day_create(
            competition=competition, by=request.user, groups=chosen, **data
        )
        match_day = selectors.match_day_get(competition=competition, number=match_day.number)
        return Response(_match_day_data(match_day), status=status.HTTP_201_CREATED)


class MatchDayDetail(APIView):
    """One match day: its tournament (for its rounds, tables and sheets), and each group with
    its teams' points on the confirmed sheets, their match points (4, 3, 2, 1; ties as the
    competition sets) and, in a knock-out round, who goes through. DELETE removes it with its
    tournament, groups and line-ups (its organisers, who create it), until a round of it is
    drawn (then 400 on ``match_day`` with the reason); the other match days keep their
    numbers."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=MatchDayDetailSerializer)
    def get(self, request, slug: str, number: int):
        competition = _competition(request, slug)
        match_day = selectors.match_day_get(competition=competition, number=number)
        return Response(_match_day_data(match_day))

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, slug: str, number: int):
        competition = _managed(request, slug)
        match_day = selectors.match_day_get(competition=competition, number=number)
        services.match_day_delete(match_day=match_day, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LineUpPlaceSerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text="1 to 4")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    start_number = serializers.IntegerField(help_text="In the match day's tournament")


class LineUpRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    players = LineUpPlaceSerializer(many=True, help_text="By place")


class LineUpSerializer(serializers.Serializer):
    team_id = serializers.IntegerField()
    name = serializers.CharField()
    rounds = LineUpRoundSerializer(many=True)


class LineUpSetSerializer(StrictSerializer):
    players = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        max_length=MAX_MEMBERS,
        help_text="The persons (player_id) who play places 1 to 4: four different players "
        "of the team",
    )
    from_round = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        default=1,
        help_text="From this round to the last; a round already drawn (not started) seats the "
        "new player in the seats of the place he takes",
    )


def _line_up_data(match_day: MatchDay, team: Team) -> dict:
    rounds: dict[int, list] = {
        number: [] for number in range(1, match_day.tournament.planned_rounds + 1)
    }
    for place in selectors.line_up_places(match_day=match_day, team=team):
        rounds.setdefault(place.round_number, []).append(place)
    return LineUpSerializer(
        {
            "team_id": team.pk,
            "name": team.name,
            "rounds": [{"round": n, "players": rounds[n]} for n in sorted(rounds)],
        }
    ).data


class LineUpDetail(APIView):
    """A team's line-up on a match day (Aufstellung): who plays each place in each round.
    Its competition's organisers change it with PUT from a round not started yet."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [LimitedJSONParser]

    def _found(self, competition: Competition, number: int, team_id: int) -> tuple[MatchDay, Team]:
        """The match day and one of its teams (404 for a team not playing that day)."""
        match_day = selectors.match_day_get(competition=competition, number=number)
        team = _team(competition, team_id)
        if not GroupTeam.objects.filter(match_day=match_day, team=team).exists():
            raise Http404
        return match_day, team

    @extend_schema(responses=LineUpSerializer)
    def get(self, request, slug: str, number: int, team_id: int):
        match_day, team = self._found(_competition(request, slug), number, team_id)
        return Response(_line_up_data(match_day, team))

    @extend_schema(request=LineUpSetSerializer, responses=LineUpSerializer)
    def put(self, request, slug: str, number: int, team_id: int):
        match_day, team = self._found(_managed(request, slug), number, team_id)
        payload = LineUpSetSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        ids = payload.validated_data["players"]
        members = {
            member.player_id: member.player
            for member in team.members.select_related("player").filter(player_id__in=ids)
        }
        strangers = [pk for pk in ids if pk not in members]
        if strangers:
            raise serializers.ValidationError(
                {
                    "players": [
                        _("The person %(id)d does not play for %(team)s.")
                        % {"id": strangers[0], "team": team.name}
                    ]
                }
            )
        services.line_up_set(
            match_day=match_day,
            team=team,
            players=[members[pk] for pk in ids],
            by=request.user,
            from_round=payload.validated_data["from_round"],
        )
        return Response(_line_up_data(match_day, team))


class TieDecisionSerializer(StrictSerializer):
    through = serializers.BooleanField(help_text="Whether this team goes through")


class TieDecide(APIView):
    """The director's decision where a knock-out tie ended level at the cut: whether this team
    goes through (its competition's organisers). Answers the match day."""

    permission_classes = [IsAuthenticated]
    parser_classes = [LimitedJSONParser]

    @extend_schema(request=TieDecisionSerializer, responses=MatchDayDetailSerializer)
    def post(self, request, slug: str, number: int, team_id: int):
        competition = _managed(request, slug)
        match_day = selectors.match_day_get(competition=competition, number=number)
        place = get_object_or_404(
            GroupTeam.objects.select_related("match_day__competition"),
            match_day=match_day,
            team_id=team_id,
        )
        payload = TieDecisionSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.tie_decide(place=place, through=payload.validated_data["through"], by=request.user)
        return Response(_match_day_data(match_day))


# The season plan ------------------------------------------------------------------------------


class PlanTeamSerializer(serializers.Serializer):
    team_id = serializers.IntegerField(source="pk")
    name = serializers.CharField()


class PlanGroupSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    teams = PlanTeamSerializer(many=True)


class PlanDaySerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The match day")
    made = serializers.BooleanField(
        help_text="The match day is made: its groups are its own, the plan no longer changes"
    )
    groups = PlanGroupSerializer(many=True)


class SeasonPlanSerializer(serializers.Serializer):
    match_days = serializers.IntegerField(source="plan.match_days")
    double = serializers.BooleanField(source="plan.double", help_text="Double match days")
    created_at = serializers.DateTimeField(source="plan.created_at")
    days = PlanDaySerializer(many=True)
    teams = PlanTeamSerializer(many=True, help_text="The order of the rows of ``meetings``")
    meetings = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(allow_null=True)),
        source="matrix",
        help_text="How often each pair of teams meets: meetings[i][j] for teams i and j "
        "(null: the team itself)",
    )
    most = serializers.IntegerField(help_text="The most times two teams meet")
    least_most = serializers.IntegerField(
        help_text="No plan of this field has every pair meet fewer times at most"
    )
    every_pair_once = serializers.BooleanField(help_text="Every pair of teams meets exactly once")


class SeasonPlanCreateSerializer(StrictSerializer):
    match_days = serializers.IntegerField(
        min_value=1, max_value=MOST_MATCH_DAYS, help_text="How many match days the plan has"
    )
    double = serializers.BooleanField(
        default=False, help_text="Its match days are double match days"
    )


class SeasonPlanSwapSerializer(StrictSerializer):
    match_day = serializers.IntegerField(min_value=1, max_value=MOST_MATCH_DAYS)
    teams = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        min_length=2,
        max_length=2,
        help_text="The two teams (ids) that change groups",
    )


def _plan_data(competition: Competition) -> dict:
    view = selectors.season_plan_of(competition=competition)
    if view is None:
        raise exceptions.NotFound(
            _("The competition has no season plan yet; its organisers draw one.")
        )
    days = [
        {
            "number": day.number,
            "made": day.made,
            "groups": [{"number": number, "teams": teams} for number, teams in day.groups],
        }
        for day in view.days
    ]
    return SeasonPlanSerializer(
        {
            "plan": view.plan,
            "days": days,
            "teams": view.teams,
            "matrix": view.matrix,
            "most": view.most,
            "least_most": view.least_most,
            "every_pair_once": view.every_pair_once,
        }
    ).data


class SeasonPlanDetail(APIView):
    """A league's season plan: the groups of four of every match day, drawn at once so that
    every pair of teams meets as evenly as possible (exactly once for 16 teams over five match
    days), and how often each pair meets. POST draws it (again) before the first match day is
    made (its organisers; 400 on ``plan`` after that, on ``teams`` for a number of teams four
    does not divide). A match day made without groups takes the plan's."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    parser_classes = [LimitedJSONParser]

    @extend_schema(responses=SeasonPlanSerializer)
    def get(self, request, slug: str):
        return Response(_plan_data(_competition(request, slug)))

    @extend_schema(request=SeasonPlanCreateSerializer, responses={201: SeasonPlanSerializer})
    def post(self, request, slug: str):
        competition = _managed(request, slug)
        payload = SeasonPlanCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        services.season_plan_create(
            competition=competition, by=request.user, **payload.validated_data
        )
        return Response(_plan_data(competition), status=status.HTTP_201_CREATED)


class SeasonPlanSwap(APIView):
    """Swap two teams between their groups of one planned match day (its organisers), until
    that match day is made (then 400 on ``match_day`` with the reason). Answers the plan."""

    permission_classes = [IsAuthenticated]
    parser_classes = [LimitedJSONParser]

    @extend_schema(request=SeasonPlanSwapSerializer, responses=SeasonPlanSerializer)
    def post(self, request, slug: str):
        competition = _managed(request, slug)
        payload = SeasonPlanSwapSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        ids = payload.validated_data["teams"]
        teams = {team.pk: team for team in competition.teams.filter(pk__in=ids)}
        unknown = [pk for pk in ids if pk not in teams]
        if unknown:
            raise serializers.ValidationError(
                {
                    "teams": [
                        _("No team of this competition has the number %(id)d.") % {"id": unknown[0]}
                    ]
                }
            )
        services.season_plan_swap(
            competition=competition,
            match_day=payload.validated_data["match_day"],
            teams=[teams[pk] for pk in ids],
            by=request.user,
        )
        return Response(_plan_data(competition))


# The season table and the bracket -------------------------------------------------------------


class SeasonLineSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    team_id = serializers.IntegerField(source="team.pk")
    team = serializers.CharField(source="team.name")
    club = serializers.CharField(source="team.club")
    match_points = MatchPointsField(help_text="Summed over the group stage's match days")
    game_points = serializers.IntegerField(help_text="The team's points, summed")
    shared = serializers.BooleanField(help_text="The rank is shared with another team")
    zone = serializers.ChoiceField(
        choices=["promotion", "relegation", ""],
        help_text="A promotion or relegation place; empty: neither",
    )


class SeasonTableSerializer(serializers.Serializer):
    competition = serializers.SlugField()
    promotion_places = serializers.IntegerField()
    relegation_places = serializers.IntegerField()
    lines = SeasonLineSerializer(many=True)


class SeasonTable(APIView):
    """The season table: each team's match points summed over the match days of the group
    stage (from the confirmed sheets of each group), then the competition's tie-breaks
    (summed game points, direct comparison), with the promotion and relegation places."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=SeasonTableSerializer)
    def get(self, request, slug: str):
        competition = _competition(request, slug)
        return Response(
            SeasonTableSerializer(
                {
                    "competition": competition.slug,
                    "promotion_places": competition.promotion_places,
                    "relegation_places": competition.relegation_places,
                    "lines": selectors.season_table(competition=competition),
                }
            ).data
        )


class BracketRoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="match_day.number", help_text="The match day")
    tournament = serializers.SlugField(source="match_day.tournament.slug")
    ties = GroupSerializer(many=True, help_text="Each with who goes through")


class BracketSerializer(serializers.Serializer):
    competition = serializers.SlugField()
    rounds = BracketRoundSerializer(many=True, help_text="The knock-out rounds in order")


class Bracket(APIView):
    """A team championship's knock-out rounds in order, each tie with its teams' summed
    points over the rounds of the tie and who goes through."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=BracketSerializer)
    def get(self, request, slug: str):
        competition = _competition(request, slug)
        return Response(
            BracketSerializer(
                {
                    "competition": competition.slug,
                    "rounds": selectors.bracket(competition=competition),
                }
            ).data
        )
