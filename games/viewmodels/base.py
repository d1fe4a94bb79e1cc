"""What every page's view model shares, and the dice as a page draws them."""

from __future__ import annotations

from dataclasses import dataclass


class ViewModel:
    """A page's view model. Django's templates try ``obj[name]`` before ``obj.name`` and
    pay for a caught exception on every attribute of a plain object; answering the first
    try makes a 4-seat board render about twice as fast."""

    __iter__ = None  # a view model is not a sequence, whatever __getitem__ suggests

    def __getitem__(self, name: str) -> object:
        if not isinstance(name, str):
            raise KeyError(name)
        return getattr(self, name)


# Pip positions on a 100x100 die face, by face value.
PIPS = {
    1: [(50, 50)],
    2: [(28, 28), (72, 72)],
    3: [(28, 28), (50, 50), (72, 72)],
    4: [(28, 28), (72, 28), (28, 72), (72, 72)],
    5: [(28, 28), (72, 28), (50, 50), (28, 72), (72, 72)],
    6: [(28, 25), (72, 25), (28, 50), (72, 50), (28, 75), (72, 75)],
}


@dataclass(frozen=True)
class DieView(ViewModel):
    index: int
    value: int
    held: bool = False
    toggle_mask: str = ""  # the held mask after pressing this die
    suggested: bool = False  # the coach would keep this die

    @property
    def number(self) -> int:
        """The die's place in the row, counted from 1 as players count."""
        return self.index + 1

    @property
    def pips(self) -> list[tuple[int, int]]:
        return PIPS[self.value]


def plain_dice(values: list[int] | tuple[int, ...]) -> tuple[DieView, ...]:
    """Dice to look at, not to press (a review's moments, a replay)."""
    return tuple(DieView(i, v) for i, v in enumerate(values))
