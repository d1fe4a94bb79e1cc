from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .engine import MAX_SEATS
from .models import BotLevel
from .rules import Category
from .selectors.words import BOX_NAMES


def _players_label(count: int) -> str:
    return ngettext("%(count)d player", "%(count)d players", count) % {"count": count}


# Evaluated when shown, in the reader's language.
players_label = lazy(_players_label, str)


class GameCreateForm(forms.Form):
    seats = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(n, _("Solo") if n == 1 else players_label(n)) for n in range(1, MAX_SEATS + 1)],
        coerce=int,
        initial=2,
    )
    upper_first = forms.BooleanField(
        label=_("Upper section first (fill Aces to Sixes before any lower box)"), required=False
    )
    is_public = forms.BooleanField(
        label=_("List on the home page so anyone can join"), required=False
    )
    coach_hints = forms.ChoiceField(
        label=_("Coach hints"),
        choices=[
            ("auto", _("Automatic: on when you play alone or only against the computer")),
            ("on", _("On for everyone")),
            ("off", _("Off")),
        ],
        initial="auto",
        required=False,
    )

    def hints_setting(self) -> bool | None:
        """None (decide at the start), True or False; a form without the field means auto."""
        return {"on": True, "off": False}.get(self.cleaned_data["coach_hints"])

    name = forms.CharField(label=_("Your display name"), max_length=40, required=False)


class GuestNameForm(forms.Form):
    name = forms.CharField(label=_("Your display name"), max_length=40, strip=True)


class VersionForm(forms.Form):
    """Every action names the version of the table it was made against."""

    version = forms.IntegerField(
        min_value=1,
        widget=forms.HiddenInput,
        error_messages={
            key: _(
                "This action did not say which version of the table it was made on; "
                "reload the page and try again."
            )
            for key in ("required", "invalid", "min_value")
        },
    )


class JoinForm(VersionForm):
    name = forms.CharField(label=_("Your display name"), max_length=40, required=False)


class KeepForm(VersionForm):
    held = forms.RegexField(
        regex=r"^[01]{5}$",
        error_messages={
            "required": _("Choose which of the five dice to keep."),
            "invalid": _("Choose which of the five dice to keep."),
        },
    )

    def held_flags(self) -> tuple[bool, ...]:
        return tuple(ch == "1" for ch in self.cleaned_data["held"])


class ScoreForm(VersionForm):
    category = forms.ChoiceField(
        choices=[(c.value, BOX_NAMES[c]) for c in Category],
        error_messages={
            "required": _("Choose a box on the scorecard to score."),
            "invalid_choice": _("There is no such box on the scorecard."),
        },
    )

    def category_value(self) -> Category:
        return Category(self.cleaned_data["category"])


class AddBotForm(VersionForm):
    level = forms.ChoiceField(
        label=_("Computer player"),
        choices=BotLevel.choices,
        initial=BotLevel.CASUAL,
        error_messages={"invalid_choice": _("Choose Coach, Casual or Beginner.")},
    )


class RemoveBotForm(VersionForm):
    position = forms.IntegerField(min_value=0, max_value=MAX_SEATS - 1, widget=forms.HiddenInput)


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)
