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
    ]


@admin.register(Scoresheet)
class ScoresheetAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "version", "updated_at"]
    list_filter = ["status", "table__round__tournament"]
    list_select_related = ["table__round__tournament"]
    readonly_fields = ["version", "submitted_at", "confirmed_at", "updated_at"]
    inlines = [HandInline]
