"""The administration, for what the pages do not offer. Workflows (a tournament's, an entry's,
a round's status) move only through the services, which keep their rules and history: their
status fields are read-only here. A round with scoresheets is not deleted here (nor, so, its
tournament): the round's page undoes a draw or deletes a round before it starts."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournaments import play, ranked, selectors, services
from tournaments.models import (
    Entry,
    ExtraTime,
    PersonChange,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
    TournamentRole,
)


class ReadOnlyAdmin(admin.ModelAdmin):
    """A record the services write and the administration only reads (a log, a grant)."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class NameSearch(admin.ModelAdmin):
    """The admin's search also finds names however spelt ("mueller" finds Müller), as every
    other name search does (``selectors.name_filter``)."""

    def get_search_results(self, request, queryset, search_term):
        found, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        if search_term.strip():
            found = found | selectors.name_filter(queryset, query=search_term)
        return found, may_have_duplicates


def _standings_of(tournament_ids) -> None:
    """Rebuild these tournaments' standings after commit: they show the players' names and
    clubs, start numbers and status as they were when built."""
    for tournament_id in set(tournament_ids):
        services.standings_schedule(tournament_id=tournament_id)


@admin.register(Player)
class PlayerAdmin(NameSearch):
    list_display = ["last_name", "first_name", "club", "ddv_number"]
    search_fields = ["last_name", "first_name", "club", "ddv_number"]
    list_filter = ["club"]

    def save_model(self, request, obj, form, change):
        if not change:
            super().save_model(request, obj, form, change)
            return
        # A correction of the person, as on the person's page: logged, and shown again in
        # every tournament of theirs (``services.person_update``).
        services.person_update(
            player=Player.objects.get(pk=obj.pk),
            first_name=obj.first_name,
            last_name=obj.last_name,
            club=obj.club,
            ddv_number=obj.ddv_number,
            by=request.user,
        )


@admin.register(PersonChange)
class PersonChangeAdmin(ReadOnlyAdmin):
    """The log of changes to persons: written by the services, read here."""

    list_display = ["at", "kind", "player", "by"]
    list_filter = ["kind"]
    list_select_related = ["player", "by"]
    search_fields = ["player__last_name", "player__first_name"]


class TournamentRoleInline(admin.TabularInline):
    model = TournamentRole
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "starts_on",
        "venue",
        "status",
        "official",
        "planned_rounds",
        "is_public",
    ]
    list_filter = ["status", "official", "is_public", "starts_on"]
    search_fields = ["name", "venue", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "starts_on"
    inlines = [TournamentRoleInline]
    readonly_fields = ["status"]  # the rounds move it (services.round_start, round_close)
    fieldsets = [
        (None, {"fields": ["name", "slug", "starts_on", "ends_on", "venue", "status"]}),
        (
            _("Rounds"),
            {
                "fields": [
                    "official",
                    "planned_rounds",
                    "seating_method",
                    ("hands_per_match", "match_minutes"),
                    "allow_tables_of_five",
                    ("hands_per_match_five", "match_minutes_five"),
                    "allow_tables_of_six_and_seven",
                    "springer",
                ]
            },
        ),
        (
            _("Visibility and standings"),
            {"fields": ["is_public", "standings_public", "tiebreaks", "counts_for_ranking"]},
        ),
    ]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # The tie-breaks and the players' names show in the stored standings.
        services.standings_schedule(tournament_id=obj.pk)
        # What the ranking lists count by: a tournament hidden here drops out of them.
        if ranked.RANKING_SETTINGS & set(form.changed_data):
            ranked.everything_changed()

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        # Whoever adds a tournament here organises it, as on the "New tournament" page (after
        # the roles entered with it, which may name him already).
        if not change:
            TournamentRole.objects.get_or_create(
                tournament=form.instance, user=request.user, role=TournamentRole.Role.ORGANISER
            )


@admin.register(Entry)
class EntryAdmin(NameSearch):
    list_display = ["start_number", "last_name", "first_name", "player", "tournament", "status"]
    list_filter = ["status", "tournament"]
    search_fields = ["last_name", "first_name", "start_number"]
    list_select_related = ["player", "tournament"]
    autocomplete_fields = ["player", "tournament"]
    # Withdrawing or disqualifying re-seats the rounds drawn: the players page does it.
    readonly_fields = ["status"]

    def save_model(self, request, obj, form, change):
        before = Entry.objects.filter(pk=obj.pk).values_list("tournament_id", flat=True)
        moved_from = list(before) if change else []
        super().save_model(request, obj, form, change)
        _standings_of([obj.tournament_id, *moved_from])

    def delete_model(self, request, obj):
        super().delete_model(request, obj)
        _standings_of([obj.tournament_id])

    def delete_queryset(self, request, queryset):
        tournaments = list(queryset.values_list("tournament_id", flat=True))
        super().delete_queryset(request, queryset)
        _standings_of(tournaments)


def _has_sheets(round_: Round | None) -> bool:
    return round_ is not None and round_.pk is not None and play.recorded().has_sheets(round=round_)


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True

    def has_delete_permission(self, request, obj=None):
        # ``obj``: the round; its tables' sheets are the play's record.
        return not _has_sheets(obj) and super().has_delete_permission(request, obj)


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "published_at", "started_at", "ended_at"]
    list_filter = ["status", "tournament"]
    list_select_related = ["tournament"]
    inlines = [TableInline]
    # The round's page and its services move these (draw, publish, start, end, close).
    readonly_fields = ["status", "published_at", "started_at", "ended_at"]

    def has_delete_permission(self, request, obj=None):
        return not _has_sheets(obj) and super().has_delete_permission(request, obj)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "entry"]
    raw_id_fields = ["entry"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "round"]
    list_filter = ["round__tournament"]
    list_select_related = ["round__tournament"]
    inlines = [SeatInline]

    def save_formset(self, request, form, formset, change):
        # Seat.round repeats the table's round so that the database can refuse a second seat
        # for the same player in a round.
        for seat in formset.save(commit=False):
            seat.round_id = form.instance.round_id
            seat.save()
        for seat in formset.deleted_objects:
            seat.delete()


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ["tournament", "user", "role"]
    list_filter = ["role", "tournament"]
    list_select_related = ["tournament", "user"]
    autocomplete_fields = ["user", "tournament"]


@admin.register(ExtraTime)
class ExtraTimeAdmin(ReadOnlyAdmin):
    """Extra time is granted on the round's page (TSR 8.5.1) and kept as it was granted."""

    list_display = ["table", "minutes", "reason", "granted_by", "granted_at"]
    list_filter = ["table__round__tournament"]
    list_select_related = ["table__round__tournament", "granted_by"]
