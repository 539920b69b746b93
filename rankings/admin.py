"""The ranking lists in the administration: made and changed there, with their first
maintainers; their admissions and log only read (the maintainers decide on their pages)."""

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _

from rankings.models import RankingAdmission, RankingList, RankingLogEntry
from rankings.services import admissions, lists
from tournaments.admin import ReadOnlyAdmin


class RankingListForm(forms.ModelForm):
    """A list with its maintainers, chosen among the accounts; saving appoints and removes them
    through the services, which log it. A list keeps at least one once it has any."""

    maintainer_accounts = forms.ModelMultipleChoiceField(
        queryset=User.objects.filter(is_active=True).order_by("username"),
        required=False,
        label=_("maintainers"),
        help_text=_(
            "They admit tournaments to the list and appoint each other; none of them decides "
            "on a tournament he is on the staff of."
        ),
        widget=FilteredSelectMultiple(_("maintainers"), is_stacked=False),
    )

    class Meta:
        model = RankingList
        fields = [
            "name",
            "slug",
            "months",
            "min_rounds",
            "tournament_min_players",
            "tournament_min_rounds",
            "tournament_tables_of_four_only",
            "tournament_official_only",
            "is_public",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["maintainer_accounts"].initial = list(self.instance.maintainers.all())

    def clean_maintainer_accounts(self):
        chosen = self.cleaned_data["maintainer_accounts"]
        if self.instance.pk and self.instance.maintainers.exists() and not chosen:
            raise forms.ValidationError(
                _(
                    "A ranking list keeps at least one maintainer: appoint another before "
                    "removing the last."
                )
            )
        return chosen


class RankingAdmissionInline(admin.TabularInline):
    """The tournaments asked and decided, as the list's page shows them; decided there or
    through the API, by its maintainers."""

    model = RankingAdmission
    extra = 0
    fields = ["tournament", "status", "requested_by", "decided_by", "decided_at", "reason"]
    readonly_fields = ["tournament", "status", "requested_by", "decided_by", "decided_at", "reason"]
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(RankingList)
class RankingListAdmin(admin.ModelAdmin):
    """Ranking lists across tournaments and their maintainers; saving one rebuilds it in the
    background."""

    form = RankingListForm
    list_display = ["name", "slug", "months", "min_rounds", "is_public", "built_for"]
    prepopulated_fields = {"slug": ["name"]}
    fieldsets = [
        (None, {"fields": ["name", "slug", "months", "min_rounds", "is_public"]}),
        (
            _("What a tournament needs to be admitted"),
            {
                "fields": [
                    "tournament_min_players",
                    "tournament_min_rounds",
                    "tournament_tables_of_four_only",
                    "tournament_official_only",
                ]
            },
        ),
        (_("Maintainers"), {"fields": ["maintainer_accounts"]}),
        (_("Built"), {"fields": ["built_at", "built_for"]}),
    ]
    readonly_fields = ["built_at", "built_for"]
    inlines = [RankingAdmissionInline]

    def save_model(self, request, obj, form, change):
        lists.ranking_list_save(
            name=obj.name,
            slug=obj.slug,
            months=obj.months,
            min_rounds=obj.min_rounds,
            is_public=obj.is_public,
            tournament_min_players=obj.tournament_min_players,
            tournament_min_rounds=obj.tournament_min_rounds,
            tournament_tables_of_four_only=obj.tournament_tables_of_four_only,
            tournament_official_only=obj.tournament_official_only,
            ranking_list=obj,
        )

    def save_related(self, request, form, formsets, change):
        """Appoint and remove maintainers through the services (they log it): those added
        first, so that the list is never left without one."""
        super().save_related(request, form, formsets, change)
        ranking_list = form.instance
        chosen = set(form.cleaned_data["maintainer_accounts"])
        current = set(ranking_list.maintainers.all())
        for user in sorted(chosen - current, key=lambda u: u.username):
            admissions.ranking_maintainer_add(ranking_list=ranking_list, who=user, by=request.user)
        for user in sorted(current - chosen, key=lambda u: u.username):
            admissions.ranking_maintainer_remove(
                ranking_list=ranking_list, user=user, by=request.user
            )


@admin.register(RankingLogEntry)
class RankingLogEntryAdmin(ReadOnlyAdmin):
    """The log of the lists' keeping, as it was written."""

    list_display = ["at", "ranking_list", "kind", "tournament_name", "by_name", "maintainer"]
    list_filter = ["ranking_list", "kind"]
    search_fields = ["tournament_name", "by_name", "maintainer", "reason"]
