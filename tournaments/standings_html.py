"""The standings table as the pages show it (TSR 8.5.2): a page of it rendered once per version
of the standings, language and page, kept in the cache under that version, and served from
there to every phone (``tournaments.views.standings``).

A rebuild made by a worker has the first page of its table made there too, for the readers
without a login in the site's language (``standings_tables_prepare``), before their processes
see the new version: the phones' refresh after a change then finds it kept, where the first of
them to ask built it while it waited (the tail of the day's standings, issue 45)."""

from django.conf import settings
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from doko import standings
from tournaments import caching, selectors
from tournaments.models import Tournament
from tournaments.permissions import standings_mode_of
from tournaments.templatetags.tournament_tags import signed

TIEBREAK_LABELS = {
    standings.Tiebreak.PLACINGS: gettext_lazy("the sum of the table placings"),
    standings.Tiebreak.BEST_ROUND: gettext_lazy("the best single round"),
    standings.Tiebreak.START_NUMBER: gettext_lazy("the start number"),
}

STANDINGS_PAGE_SIZE = 100  # players per page: a phone loads about 40 KB
# Cached are only the pages there are (a page past the last one is a 404, not cached): per
# version of the standings and language, one table and one whole page for each 100 players.

# Up to so many holders of a mark are named; more are counted ("14 players").
STATISTICS_NAMES = 3


def highlight_text(highlight: standings.Highlight, *, rounds: bool) -> str:
    """Who holds a mark of the statistics: every one of them by name while they are few (with
    the round, for a round's points), else how many; never one picked from a tie."""
    if highlight.players > STATISTICS_NAMES or len(highlight.holders) > STATISTICS_NAMES:
        return ngettext("%(count)d player", "%(count)d players", highlight.players) % {
            "count": highlight.players
        }
    if not rounds:
        return ", ".join(holder.entrant.name for holder in highlight.holders)
    return ", ".join(
        _("%(name)s (round %(number)d)")
        % {"name": holder.entrant.name, "number": holder.round or 0}
        for holder in highlight.holders
    )


def statistics_marks(figures: standings.Statistics) -> list[tuple[str, int, str]]:
    """The marks of the statistics as shown: label, value and who holds it."""
    marks = [
        (_("Highest round"), figures.highest_round, True),
        (_("Lowest round"), figures.lowest_round, True),
        (_("Most solos won"), figures.most_solos_won, False),
    ]
    return [
        (label, mark.value, highlight_text(mark, rounds=rounds))
        for label, mark, rounds in marks
        if mark is not None
    ]


def standings_rows_html(
    rows: tuple[standings.Row, ...], *, rounds: int, player_url: str
) -> SafeString:
    """The table's rows, put into words in Python: byte for byte what the template's loop wrote
    (tests/tournaments/test_standings_rows.py), in about 1 ms where it took 20. A page is 100
    rows of some 15 cells, made once per version of the standings after every hand-in and
    confirmation: in the template that was nearly half of the 45 ms a Celery worker's rebuild
    took at the championship's end of a round, when the worker used more processor time than
    the web server (issue 45). A run of players who have not played yet is headed where it begins; a
    rank, best round or provisional missing shows as the template showed it."""
    escape = conditional_escape
    url = escape(player_url)
    # Each said once a page, outside the f-strings (where makemessages finds them).
    not_yet = escape(_("Has not played yet"))
    not_ranked = escape(_("not ranked until a round of theirs is confirmed"))
    withdrawn = escape(_("withdrawn"))
    disqualified = escape(_("disqualified"))
    apart = (
        f'<tr class="apart"><th scope="rowgroup" colspan="{rounds + 6}">{not_yet} '
        f'<small class="fw-normal text-body-secondary">{not_ranked}</small></th></tr>'
    )
    badges = {
        standings.Status.WITHDRAWN: f' <span class="badge text-bg-warning">{withdrawn}</span>',
        standings.Status.DISQUALIFIED: (
            f' <span class="badge text-bg-danger">{disqualified}</span>'
        ),
    }
    parts: list[str] = []
    add = parts.append
    heading = False  # whether the row before was one of them (the template's ``ifchanged``)
    for row in rows:
        entrant = row.entrant
        not_played = row.not_played
        if not_played and not heading:
            add(apart)
        heading = not_played
        inactive = entrant.status != "active" or not_played
        add('<tr class="inactive"><td>' if inactive else "<tr><td>")
        add(str(row.rank) if row.rank else "–")
        number = entrant.start_number
        add(
            f'</td><td class="n"><a href="{url}{number}/">{escape(entrant.name)}</a> '
            f"<small>{number}</small>{badges.get(entrant.status, '')}</td>"
        )
        for result in row.results:
            if result is None:
                add('<td class="r"></td>')
                continue
            classes = "r neg" if result.points < 0 else "r"
            if result.confirmed:
                add(f'<td class="{classes}">{result.points}<small>{result.placing}.</small></td>')
            else:
                add(
                    f'<td class="{classes} prov">{result.points}*'
                    f"<small>{result.placing}.</small></td>"
                )
        add('<td><b class="neg">' if row.points < 0 else "<td><b>")
        add(f"{row.points}</b>")
        if row.provisional is not None:
            provisional = signed(row.provisional) if row.provisional else 0
            add(f'<br><small class="prov">{provisional}*</small>')
        best = row.best_round if row.best_round is not None else "–"
        add(
            f'</td><td class="p">{row.placings}</td><td class="l">{best}</td>'
            f'<td class="l">{row.solos_won}/{row.solos_played}</td></tr>\n  '
        )
    return SafeString("".join(parts))


def _past_the_end(*, page: int, pages: int) -> Http404:
    return Http404(
        ngettext(
            "The standings have %(pages)d page; there is no page %(page)d.",
            "The standings have %(pages)d pages; there is no page %(page)d.",
            pages,
        )
        % {"pages": pages, "page": page}
    )


def standings_table_html(*, tournament: Tournament, version: str, mode: str, page: int) -> bytes:
    """A page of the standings table for readers who see it as ``mode`` says, of the standings
    at ``version`` (``caching.head_version``), in the active language: rendered once per
    version, language and page and then served from the cache as it is."""
    if mode == "hidden":  # one page, whichever was asked for (the view's ``_standings_page``)
        return render_to_string(
            "tournaments/partials/standings_table.html", {"tournament": tournament, "hidden": True}
        ).encode()
    key = f"standings-html:{tournament.pk}:{version}:{translation.get_language()}:{page}"
    html = caching.versioned_get(key)
    if html is None:
        table = selectors.standings_read(tournament=tournament)
        rows = table.rows if table else ()
        size = STANDINGS_PAGE_SIZE
        pages = -(-len(rows) // size)
        if page > max(pages, 1):  # raised before anything is cached
            raise _past_the_end(page=page, pages=pages)
        figures = standings.statistics(table) if table and page == 1 else None
        player_url = reverse("tournaments:player", args=[tournament.slug, 0])[:-2]
        html = render_to_string(
            "tournaments/partials/standings_table.html",
            {
                "tournament": tournament,
                "table": table,
                "rows_html": standings_rows_html(
                    rows[(page - 1) * size : page * size],
                    rounds=len(table.rounds) if table else 0,
                    player_url=player_url,
                ),
                "page": page,
                "pages": [
                    (number, first + 1, min(first + size, len(rows)))
                    for number, first in enumerate(range(0, len(rows), size), start=1)
                ],
                "statistics": figures,
                # The club ranking on the first page, where it has room (None: the tournament
                # has none); changing it rebuilds the standings, so the cache is renewed.
                "club_ranking": selectors.club_ranking_of(tournament=tournament, table=table)
                if page == 1
                else None,
                "club_players": tournament.club_ranking_players,
                "marks": statistics_marks(figures) if figures else [],
                "tiebreaks": [TIEBREAK_LABELS[t] for t in table.tiebreaks] if table else [],
                "built_at": table.built_at if table else None,
            },
        ).encode()
        caching.versioned_put(key, html)
    return as_bytes(html)


def as_bytes(html: bytes | str) -> bytes:
    """A page as cached: bytes (text from before they were cached as bytes)."""
    return html.encode() if isinstance(html, str) else html


def standings_tables_prepare(*, slug: str) -> None:
    """The first page of a public tournament's standings table as readers without a login see
    it (their ``standings_mode``), in the site's language (``LANGUAGE_CODE``: the phones'
    unless they ask for another), made and kept under the standings' version as their pages
    read it (``selectors.public_head``): asked by the worker right after its rebuild, while
    the web processes still show the version before it for up to
    ``TOURNAMENT_HEAD_LOCAL_SECONDS``. A page in another language is made by its first reader,
    as before: each costs the worker as much as the page itself, asked or not. Nothing for
    standings hidden from them, nor for a tournament that is not public."""
    try:
        head = selectors.public_head(slug=slug)
    except Http404:
        return
    mode = standings_mode_of(head.tournament, roles=set())
    if mode == "hidden":
        return
    with translation.override(settings.LANGUAGE_CODE):
        standings_table_html(tournament=head.tournament, version=head.version, mode=mode, page=1)
