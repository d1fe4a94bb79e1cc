"""The practice page: "what would you keep?" on positions from real games (a normal page:
plain form posts with CSRF, no shared board)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from games import services
from games.models import Ruleset
from games.selectors.practice import (
    position_for,
    practice_answer_view,
    practice_position,
    practice_record,
)
from games.views.pages import no_such_ruleset


@require_http_methods(["GET", "POST"])
def practice_page(request: HttpRequest) -> HttpResponse:
    """GET: the next position (``?n=`` counts them). POST: judge the dice kept."""
    try:
        n = max(0, int(request.GET.get("n", request.POST.get("n", "0"))))
    except ValueError:
        n = 0
    # Positions of one rule set (``?ruleset=``), or of every rule set when none is asked.
    asked = request.GET.get("ruleset", request.POST.get("ruleset", ""))
    ruleset = Ruleset.from_query(asked) if asked else None
    if asked and ruleset is None:
        return no_such_ruleset(request, reverse("practice"))
    context: dict[str, object] = {
        "n": n,
        "next_n": n + 1,
        "record": practice_record(request.user.pk if request.user.is_authenticated else None),
        "ruleset": ruleset or "",
        "rulesets": Ruleset.choices,
    }
    if request.method == "GET":
        context["position"] = practice_position(n, ruleset)
        return render(request, "games/practice.html", context)
    position = position_for(request.POST.get("token", ""))
    kept = request.POST.getlist("keep")
    if position is None or not all(k in {"0", "1", "2", "3", "4"} for k in kept):
        context["position"] = practice_position(n, ruleset)
        context["error"] = _(
            "That answer did not name a practice position and its dice; try this one."
        )
        return render(request, "games/practice.html", context, status=400)
    answer = practice_answer_view(position, {int(k) for k in kept})
    if request.user.is_authenticated:
        context["record"], context["counted"] = services.practice_answer(
            user_id=request.user.pk,
            game_id=position.game_id,
            seat=position.seat,
            decision=position.decision,
            best=answer.best,
        )
    context["answer"] = answer
    context["position"] = position
    return render(request, "games/practice.html", context)
