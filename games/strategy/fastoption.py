"""Options made without the frozen dataclass's ``__init__``: a speed trick for ``rank``.

``Advisor.rank`` returns every choice of a position, up to 45 :class:`~.choices.Option`
values a call. A frozen dataclass sets each field through ``object.__setattr__`` (~350 ns
an option); writing the two fields straight into the new instance's ``__dict__`` makes the
same object, equal and hashing alike, in ~190 ns (measured in docs/benchmarks.md, #18).
"""

from __future__ import annotations

from games.strategy.choices import Choice, Option

_new = object.__new__


def made_option(choice: Choice, expected_total: float) -> Option:
    """``Option(choice, expected_total)``, built faster."""
    option = _new(Option)
    fields = option.__dict__
    fields["choice"] = choice
    fields["expected_total"] = expected_total
    return option
