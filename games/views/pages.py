"""Read-only pages beyond the table itself: checking the dice (moves.json, /verify/), the
replay, a series' score pad, a player's history and the leaderboard, and the 404s of links
no game or player could have. Thin, like every view: a selector reads, a template renders."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_GET

from games import selectors
from games.clock import clock
from games.models import Player, Ruleset
from games.selectors import chat as chat_selectors
from games.selectors.daily import daily_record
from games.selectors.tournaments import tournaments_played
from games.views.common import (
    HtmxHttpRequest,
    check_shared_dice_hidden,
    game_or_404,
    player_for,
)


@require_GET
def game_moves(request: HttpRequest, code: str) -> JsonResponse:
    """The move log as published for checking the dice (see games/dice.py)."""
    game = game_or_404(code)
    check_shared_dice_hidden(request, game, game.seats.all())
    return JsonResponse(selectors.moves_json(game))


def _query_number(request: HttpRequest, name: str) -> int | None:
    """A whole number from the query string; None when absent; ValueError when not one."""
    raw = request.GET.get(name)
    if raw is None or raw == "":
        return None
    value = int(raw)
    if value < 0:
        raise ValueError(raw)
    return value


@require_GET
def game_replay(request: HttpRequest, code: str) -> HttpResponse:
    """A finished (or running) game, move by move: ``?v=N`` opens the move that made
    version N; ``?seat=P&decision=I`` the coach's I-th reviewed decision of seat P."""
    game = game_or_404(code)
    check_shared_dice_hidden(request, game, game.seats.all())
    error, status = None, 200
    try:
        version = _query_number(request, "v")
        seat, decision = _query_number(request, "seat"), _query_number(request, "decision")
    except ValueError:
        version = seat = decision = None
        error, status = gettext("That link names no moment of this game; here is its start."), 400
    moment = (seat, decision) if seat is not None and decision is not None else None
    replay = selectors.replay_view(game, version, moment)
    step_version = replay.steps[replay.index].version if replay and replay.steps else 0
    chat = chat_selectors.chat_messages(game, player_for(request), up_to_version=step_version)
    context = {"r": replay, "game": game, "error": error, "chat": chat}
    return render(request, "games/replay.html", context, status=status)


@require_GET
def game_verify(request: HttpRequest, code: str) -> HttpResponse:
    """The page that recomputes the game's dice in the browser once the seed is out."""
    game = game_or_404(code)
    check_shared_dice_hidden(request, game, game.seats.all())
    return render(request, "games/verify.html", {"v": selectors.verify_view(game)})


@require_GET
def game_series(request: HttpRequest, code: str) -> HttpResponse:
    """The score pad of the series this game belongs to."""
    series = selectors.series_view(game_or_404(code))
    if series is None:
        raise Http404(gettext("This game is not part of a series."))
    return render(request, "games/series.html", {"s": series})


def no_such_ruleset(request: HttpRequest, page: str) -> HttpResponse:
    """The 400 of a ``?ruleset=`` that names no rule set, with a link to the page's
    default (Yahtzee)."""
    message = gettext("There is no such rule set: choose Yahtzee, Yatzy or Yacht.")
    return render(request, "400.html", {"message": message, "first": page}, status=400)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    """The leaderboard of one rule set (``?ruleset=``, Yahtzee when absent): ratings are
    kept per rule set."""
    ruleset = Ruleset.from_query(request.GET.get("ruleset"))
    if ruleset is None:
        return no_such_ruleset(request, reverse("leaderboard"))
    context = {
        "rows": selectors.leaderboard(ruleset=ruleset),
        "bots": selectors.bot_ratings(),
        "min_games": selectors.MIN_RATED_GAMES,
        "ruleset": ruleset,
        "rulesets": list(Ruleset),
    }
    return render(request, "games/leaderboard.html", context)


RULES_LANGUAGES = ("en", "te", "uz")  # each rules page is written whole in each of them


def rules_page(request: HttpRequest, ruleset: Ruleset) -> HttpResponse:
    """How to play ``ruleset``, written whole in the reader's language."""
    language = get_language() if get_language() in RULES_LANGUAGES else "en"
    folder = "" if ruleset == Ruleset.YAHTZEE else f"{ruleset.value}/"
    context = {
        "ruleset": ruleset,
        "rulesets": list(Ruleset),
        "page": f"rules/{folder}{language}.html",
    }
    return render(request, "rules.html", context)


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """Yahtzee's rules, at ``/rules/`` as before there were rule sets."""
    return rules_page(request, Ruleset.YAHTZEE)


@require_GET
def rules_of(request: HttpRequest, ruleset: str) -> HttpResponse:
    """Another rule set's rules, at ``/rules/<ruleset>/``."""
    if ruleset not in Ruleset.values:
        raise Http404(gettext("There are no rules by that name: see Yahtzee, Yatzy or Yacht."))
    if ruleset == Ruleset.YAHTZEE:
        return redirect("rules", permanent=True)
    return rules_page(request, Ruleset(ruleset))


def no_such_game(request: HttpRequest) -> HttpResponse:
    """Any other link under ``g/``: its code is not one the site makes (games/converters.py),
    so there is no game to look for."""
    raise Http404(gettext("There is no game with that link."))


def no_such_player(request: HttpRequest) -> HttpResponse:
    """Any other link under ``u/``: no username looks like that (games/converters.py)."""
    raise Http404(gettext("No player by that name."))


@require_GET
def history(request: HtmxHttpRequest, username: str) -> HttpResponse:
    """A player's figures and charts, and one page of their games (``?page=N``, 1 the newest);
    the rating shown is that of ``?ruleset=`` (Yahtzee when absent)."""
    ruleset = Ruleset.from_query(request.GET.get("ruleset"))
    if ruleset is None:
        return no_such_ruleset(request, reverse("history", args=[username]))
    raw = request.GET.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 6 else 0
    if page < 1:
        message = gettext("That is not a page of games: pages are numbered 1, 2, 3 and on.")
        first = reverse("history", args=[username])
        return render(request, "400.html", {"message": message, "first": first}, status=400)
    try:
        data = selectors.user_history(username, page=page, ruleset=ruleset)
    except selectors.NoSuchPage as error:
        raise Http404(
            ngettext(
                "There is no page %(page)d: %(name)s’s games fill %(pages)d page.",
                "There is no page %(page)d: %(name)s’s games fill %(pages)d pages.",
                error.pages,
            )
            % {"page": page, "name": username, "pages": error.pages}
        ) from None
    if data is None:
        raise Http404(gettext("No player by that name."))
    user = data.username
    series = selectors.player_series(Player(name=user, user_id=data.user_id))
    viewer = request.user.pk if request.user.is_authenticated else None
    social = selectors.person_box(viewer, user)  # Add friend, Invite to a table
    daily = daily_record(data.user_id, clock.now().date()) if data.user_id else None
    played = tournaments_played(data.user_id) if data.user_id else []
    context = {
        "h": data,
        "series": series,
        "social": social,
        "daily": daily,
        "tournaments_played": played,
    }
    return render(request, "games/history.html", context)
