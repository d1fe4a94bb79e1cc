"""The coach's alternatives as pages draw them: the best few choices of a position, each a
keep (dice drawn as in the game) or a box, with the expected final total it leads to."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.rules import Box, Rules
from games.strategy.advisor import Alternatives, Option, loss_between
from games.strategy.choices import is_negligible
from games.viewmodels.base import DieView, ViewModel, plain_dice
from games.words import box_name

TOP = 5  # choices shown: the coach's top five


@dataclass(frozen=True)
class ChoiceView(ViewModel):
    """One choice of a position: keep ``dice`` and roll, or score ``box``."""

    kind: str  # "keep" or "box"
    dice: tuple[DieView, ...]  # the dice kept (a keep); empty for a box or a full reroll
    box: str  # the box's name (a box); empty for a keep
    words: str  # the choice in a player's words
    expected: float  # expected final total if this choice is taken (then best play)
    loss: float  # expected points given away against the best choice
    place: int = 0  # 1-based place among all choices
    chosen: bool = False  # the one the player took
    win_chance: float | None = None  # chance of finishing first (the play-to-win coach)

    @property
    def is_keep(self) -> bool:
        return self.kind == "keep"

    @property
    def is_best(self) -> bool:
        return is_negligible(self.loss)

    @property
    def win_percent(self) -> float | None:
        return None if self.win_chance is None else 100 * self.win_chance


def choice_words(choice: Box | str | Iterable[int], rules: Rules | None = None) -> str:
    """A coach's choice in a player's words: "keep 5 5", or the box's name (a box, or its
    id on a card of ``rules``)."""
    if isinstance(choice, Box | str):
        return box_name(choice, rules)
    keep = tuple(choice)
    if not keep:
        return _("reroll all five")
    return _("keep %(dice)s") % {"dice": " ".join(map(str, keep))}


def _view(
    choice: Box | str | Iterable[int],
    expected: float,
    loss: float,
    place: int,
    chosen: bool,
    win: float | None,
    rules: Rules | None = None,
) -> ChoiceView:
    if isinstance(choice, Box | str):
        name = box_name(choice, rules)
        return ChoiceView("box", (), name, name, expected, loss, place, chosen, win)
    keep = tuple(choice)
    return ChoiceView(
        "keep", plain_dice(keep), "", choice_words(keep), expected, loss, place, chosen, win
    )


def option_views(alternatives: Alternatives) -> tuple[ChoiceView, ...]:
    """The top choices of a position from the advisor, best first; the chosen one is
    marked, and added at its place when it is not among them."""
    if not alternatives.top:
        return ()
    best = alternatives.top[0]
    views = []
    chosen = alternatives.chosen
    for place, option in enumerate(alternatives.top, start=1):
        views.append(_option_view(best, option, place, option == chosen))
    if chosen is not None and chosen not in alternatives.top:
        views.append(_option_view(best, chosen, alternatives.place or 0, True))
    return tuple(views)


def _option_view(best: Option, option: Option, place: int, chosen: bool) -> ChoiceView:
    loss = loss_between(best, option)
    return _view(option.choice, option.expected_total, loss, place, chosen, None)


def wire_views(
    top: Sequence[Mapping[str, object]],
    chosen: object,
    place: int | None,
    loss: float,
    rules: Rules | None = None,
) -> tuple[ChoiceView, ...]:
    """The same from a stored review (:meth:`Decision.to_dict`) of a game of ``rules``: the
    top five as data, and the chosen choice, its place and loss."""
    views = []
    wanted = _wire_key(chosen)
    best_total = float(top[0]["expected_total"]) if top else 0.0  # type: ignore[arg-type]
    found = False
    for i, entry in enumerate(top, start=1):
        is_chosen = _wire_key(entry["choice"]) == wanted
        found = found or is_chosen
        views.append(
            _view(
                _wire_choice(entry),
                float(entry["expected_total"]),  # type: ignore[arg-type]
                float(entry["loss"]),  # type: ignore[arg-type]
                i,
                is_chosen,
                None,
                rules,
            )
        )
    if not found and top:
        chosen_choice = _wire_choice({"choice": chosen})
        views.append(_view(chosen_choice, best_total - loss, loss, place or 0, True, None, rules))
    return tuple(views)


def _wire_choice(entry: Mapping[str, object]) -> str | tuple[int, ...]:
    """A stored choice: a box's id, or the dice kept."""
    choice = entry["choice"]
    return choice if isinstance(choice, str) else tuple(choice)  # type: ignore[arg-type]


def _wire_key(choice: object) -> object:
    if isinstance(choice, Box):
        return choice.value
    if isinstance(choice, str):
        return choice
    return tuple(sorted(choice))  # type: ignore[call-overload]


def win_views(ranking: Iterable[object], n: int = TOP) -> tuple[ChoiceView, ...]:
    """The best ``n`` choices to finish first (:func:`~games.strategy.winning.rank_to_win`)."""
    views: list[ChoiceView] = []
    ranked = [o for o in ranking if not (o.is_keep and len(o.choice) == 5)]  # type: ignore[attr-defined]
    if not ranked:
        return ()
    for place, option in enumerate(ranked[:n], start=1):
        views.append(
            _view(
                option.choice,  # type: ignore[attr-defined]
                option.expected_total,  # type: ignore[attr-defined]
                0.0,
                place,
                False,
                option.win_probability,  # type: ignore[attr-defined]
            )
        )
    return tuple(views)
