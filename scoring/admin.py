from django.contrib import admin

from scoring.models import Hand, Scoresheet


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = [
        "number",
        "section",
        "dealer",
        "contract",
        "solo_type",
        "soloist",
        "game_value",
        "points_1",
        "points_2",
        "points_3",
        "points_4",
        "points_5",
        "points_6",
        "points_7",
    ]


@admin.register(Scoresheet)
class ScoresheetAdmin(admin.ModelAdmin):
    """A sheet is the record of a table's match: never deleted here (nor, so, its round or
    tournament), and its workflow (handing in, confirming, sending back, reopening) moves
    only through the sheet's pages and API, which keep its history."""

    list_display = ["__str__", "status", "version", "updated_at"]
    list_filter = ["status", "table__round__tournament"]
    list_select_related = ["table__round__tournament"]
    readonly_fields = [
        "status",
        "version",
        "submitted_at",
        "submitted_by",
        "submitted_by_seat",
        "confirmed_at",
        "confirmed_by",
        "confirmed_by_seat",
        "confirmation",
        "sent_back_reason",
        "sent_back_by",
        "updated_at",
    ]
    inlines = [HandInline]

    def has_delete_permission(self, request, obj=None):
        return False
