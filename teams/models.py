"""Team competitions of the DDV (the TSR has none; the rules are the DDV's, docs/rules.md):
a league's season or the team championship (``Competition``), its teams and their players,
the match days (``MatchDay``, each played as a tournament with rounds, tables and scoresheets
like any other), the groups of four teams that meet on a match day (``Group``) and who plays in
each round (``LineUp``)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from tournaments.constraints import OneQueryChecks
from tournaments.models import OFFER_OPEN, Entry, Offer, Player, Tournament

# The most players a team names (four play, the rest are reserves), and the places of a
# line-up: one per table of a group of four teams.
MAX_MEMBERS = 12
LINE_UP_PLACES = 4


# A competition's settings: what its organisers set on the form, the API and a backup carry.
COMPETITION_SETTINGS = (
    "name",
    "kind",
    "season",
    "club",
    "promotion_places",
    "relegation_places",
    "ties",
    "tiebreaks",
    "is_public",
)


class Competition(OneQueryChecks):
    """A league's season (Liga, Saison) or a team championship (Mannschaftsmeisterschaft)."""

    class Kind(models.TextChoices):
        LEAGUE = "league", _("league")
        CHAMPIONSHIP = "championship", _("team championship")

    class Ties(models.TextChoices):
        """How teams with equal summed points in a group share the match points
        (``doko.team_scoring.match_points``)."""

        SHARED = "shared", _("tied teams share the points of their places (e.g. 2½ each)")
        HIGHER = "higher", _("tied teams each get the points of the higher place")

    class Tiebreaks(models.TextChoices):
        """The season table's tie-breaks after the match points, in order
        (``doko.team_scoring.season_table``)."""

        GAME_DIRECT = "game_points,direct", _("summed game points, then direct comparison")
        DIRECT_GAME = "direct,game_points", _("direct comparison, then summed game points")
        GAME = "game_points", _("summed game points only")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name for links"), max_length=80, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices, default=Kind.LEAGUE)
    season = models.CharField(_("season"), max_length=40, blank=True)
    club = models.CharField(_("organising club or association"), max_length=200, blank=True)
    promotion_places = models.PositiveSmallIntegerField(
        _("promotion places"),
        default=0,
        help_text=_("How many teams at the top of the season table go up."),
    )
    relegation_places = models.PositiveSmallIntegerField(
        _("relegation places"),
        default=0,
        help_text=_("How many teams at the bottom of the season table go down."),
    )
    ties = models.CharField(
        _("equal points in a group"), max_length=16, choices=Ties.choices, default=Ties.SHARED
    )
    tiebreaks = models.CharField(
        _("tie-breaks of the table"),
        max_length=40,
        choices=Tiebreaks.choices,
        default=Tiebreaks.GAME_DIRECT,
    )
    is_public = models.BooleanField(_("public"), default=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="competitions_organised",
        blank=True,
        verbose_name=_("organisers"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("team competition")
        verbose_name_plural = _("team competitions")
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="competition_name_not_empty"),
            models.CheckConstraint(
                condition=Q(promotion_places__lte=64) & Q(relegation_places__lte=64),
                name="competition_places_bounded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.season}".strip()


class Team(OneQueryChecks):
    """A team (Mannschaft) of a competition: a name, a club, its players (``TeamMember``), one
    of them its captain."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="teams", verbose_name=_("competition")
    )
    name = models.CharField(_("name"), max_length=120)
    club = models.CharField(_("club"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["competition", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "name"],
                name="team_name_unique_in_competition",
                violation_error_message=_("Another team of this competition has this name."),
            ),
            models.CheckConstraint(condition=~Q(name=""), name="team_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A person who plays for a team; in one competition a person plays for one team only."""

    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="members", verbose_name=_("team")
    )
    # The team's competition again, so that the database holds "one team per competition".
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="+", verbose_name=_("competition")
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="team_memberships", verbose_name=_("player")
    )
    is_captain = models.BooleanField(_("captain"), default=False)

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        ordering = ["team", "player__last_name", "player__first_name"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "player"],
                name="member_one_team_per_competition",
                violation_error_message=_(
                    "This player already plays for another team of this competition."
                ),
            ),
            models.UniqueConstraint(
                fields=["team"],
                condition=Q(is_captain=True),
                name="member_one_captain_per_team",
                violation_error_message=_("The team has a captain already."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.player}"


class MatchDay(OneQueryChecks):
    """A match day (Spieltag) of a competition, played as a tournament (its rounds, tables,
    scoresheets and standings); in a team championship either its group stage or one of its
    knock-out rounds."""

    class Stage(models.TextChoices):
        GROUPS = "groups", _("groups")
        KNOCKOUT = "knockout", _("knock-out round")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="match_days",
        verbose_name=_("competition"),
    )
    number = models.PositiveSmallIntegerField(_("number"))
    stage = models.CharField(_("stage"), max_length=16, choices=Stage.choices, default=Stage.GROUPS)
    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        related_name="match_day",
        verbose_name=_("tournament"),
    )
    # A double match day (Doppelspieltag, as the DDV's Bundesliga plays): its rounds in two
    # halves, the first half of the rounds and the second, each scored 4/3/2/1 on its own.
    double = models.BooleanField(
        _("double match day"),
        default=False,
        help_text=_(
            "Played in two halves (the first half of the rounds and the second), each scoring "
            "its own match points 4, 3, 2, 1."
        ),
    )

    class Meta:
        verbose_name = _("match day")
        verbose_name_plural = _("match days")
        ordering = ["competition", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "number"], name="match_day_number_unique"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="match_day_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} – {self.number}"


class Group(OneQueryChecks):
    """A group of (usually) four teams that meet on a match day at their own tables. In a
    knock-out round it is a tie: the best ``advance`` teams by summed points go through."""

    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, related_name="groups", verbose_name=_("match day")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    advance = models.PositiveSmallIntegerField(
        _("teams going through"),
        default=0,
        help_text=_("Knock-out rounds only: how many teams of the tie go through."),
    )

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = ["match_day", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match_day", "number"], name="group_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="group_number_positive"),
            models.CheckConstraint(condition=Q(advance__lte=3), name="group_advance_below_four"),
        ]

    def __str__(self) -> str:
        return f"{self.match_day} / {self.number}"


class GroupTeam(models.Model):
    """A team in a group of a match day (each team in one group a day). ``through``: in a
    knock-out tie that ended level at the cut, the director's decision."""

    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, related_name="places", verbose_name=_("group")
    )
    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, related_name="+", verbose_name=_("match day")
    )
    # A team leaves with its competition; alone it goes only while on no match day
    # (``services.team_delete``).
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="group_places", verbose_name=_("team")
    )
    through = models.BooleanField(_("goes through (decided)"), null=True, blank=True)

    class Meta:
        verbose_name = _("team in a group")
        verbose_name_plural = _("teams in groups")
        ordering = ["group", "team__name"]
        constraints = [
            models.UniqueConstraint(
                fields=["match_day", "team"],
                name="group_team_once_per_match_day",
                violation_error_message=_("This team plays in another group of the match day."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.group}: {self.team}"


MOST_PLANNED_MATCH_DAYS = 40  # as ``doko.season_plan.MOST_MATCH_DAYS``


class SeasonPlan(OneQueryChecks):
    """A league's season plan (Spielplan): the groups of four teams of every match day, drawn
    at once so that every pair of teams meets as evenly as possible (``doko.season_plan``).
    Match day n of the competition takes the groups planned for n (``PlannedPlace``), unless
    its organiser chooses others; ``double``: its match days are double match days."""

    competition = models.OneToOneField(
        Competition,
        on_delete=models.CASCADE,
        related_name="season_plan",
        verbose_name=_("competition"),
    )
    match_days = models.PositiveSmallIntegerField(_("match days"))
    double = models.BooleanField(
        _("double match days"),
        default=False,
        help_text=_("Each match day is played in two halves, each scored 4, 3, 2, 1 on its own."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("drawn by"),
    )

    class Meta:
        verbose_name = _("season plan")
        verbose_name_plural = _("season plans")
        constraints = [
            models.CheckConstraint(
                condition=Q(match_days__gte=1) & Q(match_days__lte=MOST_PLANNED_MATCH_DAYS),
                name="season_plan_match_days_bounded",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition}: {self.match_days}"


class PlannedPlace(OneQueryChecks):
    """A team's group on a match day of the season plan."""

    plan = models.ForeignKey(
        SeasonPlan, on_delete=models.CASCADE, related_name="places", verbose_name=_("season plan")
    )
    match_day = models.PositiveSmallIntegerField(_("match day"))
    group = models.PositiveSmallIntegerField(_("group"))
    # A planned team is deleted only with its competition (``services.team_delete`` refuses).
    team = models.ForeignKey(
        Team, on_delete=models.RESTRICT, related_name="planned_places", verbose_name=_("team")
    )

    class Meta:
        verbose_name = _("planned place")
        verbose_name_plural = _("planned places")
        ordering = ["plan", "match_day", "group", "team__name"]
        constraints = [
            # A team is in one group of a planned match day (and so once in that group).
            models.UniqueConstraint(
                fields=["plan", "match_day", "team"],
                name="planned_team_once_per_match_day",
                violation_error_message=_("This team is planned in another group of the day."),
            ),
            models.CheckConstraint(
                condition=Q(match_day__gte=1) & Q(match_day__lte=MOST_PLANNED_MATCH_DAYS),
                name="planned_match_day_bounded",
            ),
            models.CheckConstraint(condition=Q(group__gte=1), name="planned_group_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.plan} {self.match_day}/{self.group}: {self.team}"


class LineUp(OneQueryChecks):
    """Who plays a place of a team's line-up in a round of a match day (Aufstellung). The draw
    seats the places; a reserve who comes in takes over the place's seats."""

    match_day = models.ForeignKey(
        MatchDay, on_delete=models.CASCADE, related_name="line_ups", verbose_name=_("match day")
    )
    team = models.ForeignKey(
        Team, on_delete=models.CASCADE, related_name="line_ups", verbose_name=_("team")
    )
    round_number = models.PositiveSmallIntegerField(_("round"))
    place = models.PositiveSmallIntegerField(_("place in the line-up"))
    # Goes with the match day's tournament and its entries.
    entry = models.ForeignKey(
        Entry, on_delete=models.CASCADE, related_name="line_ups", verbose_name=_("player")
    )

    class Meta:
        verbose_name = _("line-up place")
        verbose_name_plural = _("line-ups")
        ordering = ["match_day", "team", "round_number", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["match_day", "team", "round_number", "place"],
                name="line_up_place_once",
            ),
            models.UniqueConstraint(
                fields=["match_day", "round_number", "entry"],
                name="line_up_player_once_per_round",
                violation_error_message=_("This player plays another place in this round."),
            ),
            models.CheckConstraint(
                condition=Q(place__gte=1) & Q(place__lte=LINE_UP_PLACES),
                name="line_up_place_1_to_4",
            ),
            models.CheckConstraint(condition=Q(round_number__gte=1), name="line_up_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.team} {self.round_number}/{self.place}: {self.entry}"


class OrganiserOffer(Offer):
    """A competition's organisers offer to make another account one of them (by its user name or
    e-mail address), waiting for him to accept it, logged in, on the page of the roles offered
    to him: nobody organises a competition he has not accepted. The answer is the same whether
    the name has an account (``services.competition_organiser_offer``): ``user`` is the active
    account it named when it was offered, or None, and an offer without one is never accepted
    and runs out as any other. ``who`` is the name as it was given, all its organisers are
    shown."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="organiser_offers",
        verbose_name=_("competition"),
    )
    who = models.CharField(_("user name or e-mail address"), max_length=254)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="organiser_offers",
        verbose_name=_("account"),
    )

    class Meta(Offer.Meta):
        verbose_name = _("organiser offer")
        verbose_name_plural = _("organiser offers")
        ordering = ["competition", "created_at", "pk"]
        constraints = [
            *Offer.Meta.constraints,
            # One open offer per competition and name (in any case): offering again withdraws
            # the earlier one.
            models.UniqueConstraint(
                "competition",
                Lower("who"),
                condition=OFFER_OPEN,
                name="organiseroffer_one_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.who} ({self.competition_id})"
