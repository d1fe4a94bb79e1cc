from typing import Any

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import UserCreationForm
from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.utils.translation import gettext_lazy as _

from games.engine import MAX_SEATS
from games.models import BotLevel, Pace, RetiredUsername, Ruleset
from games.rules import RULESETS, Rules
from games.services.lobby import NO_COACH_IN_RATED


def _players_label(count: int) -> str:
    return ngettext("%(count)d player", "%(count)d players", count) % {"count": count}


# Evaluated when shown, in the reader's language.
players_label = lazy(_players_label, str)


class RulesetSelect(forms.Select):
    """The rule set menu; each option says whether its rule set has the upper-section-first
    option (``data-upper-first``), read from the rule set's definition, so the page can
    hide the option where it does not apply."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        has = option["value"] in RULESETS and RULESETS[option["value"]].has_upper_first
        option["attrs"]["data-upper-first"] = "true" if has else "false"
        return option


class GameCreateForm(forms.Form):
    ruleset = forms.ChoiceField(
        label=_("Rule set"),
        choices=Ruleset.choices,
        initial=Ruleset.YAHTZEE,
        required=False,
        widget=RulesetSelect(attrs={"aria-describedby": "ruleset-help"}),
        error_messages={"invalid_choice": gettext_lazy("Choose Yahtzee, Yatzy or Yacht.")},
    )
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
    chat = forms.ChoiceField(
        label=_("Table talk"),
        choices=[
            ("", _("Automatic: free text at a table by link, quick phrases at a public one")),
            ("text", _("Quick phrases and free text")),
            ("phrases", _("Quick phrases only")),
            ("off", _("No chat")),
        ],
        required=False,
    )
    coach_hints = forms.ChoiceField(
        label=_("Coach hints"),
        choices=[
            ("auto", _("Automatic")),
            ("on", _("On for everyone")),
            ("off", _("Off")),
        ],
        initial="auto",
        required=False,
        widget=forms.Select(attrs={"aria-describedby": "coach-hints-help"}),
    )

    pace = forms.ChoiceField(
        label=gettext_lazy("Pace"),
        choices=[
            ("", gettext_lazy("Automatic")),
            *[(pace.value, pace.short_label) for pace in Pace],
        ],
        required=False,
        widget=forms.Select(attrs={"aria-describedby": "pace-help"}),
        error_messages={
            "invalid_choice": gettext_lazy("Choose blitz, live, relaxed, daily or untimed.")
        },
    )
    feedback = forms.BooleanField(
        label=_(
            "Feedback after every decision: the coach says what each keep and box cost "
            "(when you play alone or only against the computer)"
        ),
        required=False,
    )

    rated = forms.BooleanField(
        label=_("Rated: the game moves ratings, and no coach helps anyone while it runs"),
        required=False,
        initial=True,
        widget=forms.CheckboxInput(attrs={"aria-describedby": "rated-help"}),
    )

    def clean(self) -> dict[str, object]:
        """Hints or feedback and a rated table are exclusive (the page greys them out;
        this is the answer without its script). One seat is casual whatever is asked."""
        data = super().clean() or {}
        data["ruleset"] = data.get("ruleset") or Ruleset.YAHTZEE
        if data.get("upper_first") and not RULESETS[data["ruleset"]].has_upper_first:
            raise forms.ValidationError(
                gettext("Upper section first is an option of Yahtzee only: untick it.")
            )
        asks_coach = data.get("coach_hints") == "on" or data.get("feedback")
        if data.get("rated") and data.get("seats", 2) != 1 and asks_coach:
            raise forms.ValidationError(gettext(NO_COACH_IN_RATED))
        return data

    rulesets = tuple(Ruleset)  # each with its name and its rules page, for the form's links

    def rules(self) -> Rules:
        """The rules the table is opened with."""
        return Rules(
            upper_first=self.cleaned_data["upper_first"], ruleset=self.cleaned_data["ruleset"]
        )

    def hints_setting(self) -> bool | None:
        """None (decide at the start), True or False; a form without the field means auto."""
        return {"on": True, "off": False}.get(self.cleaned_data["coach_hints"])

    name = forms.CharField(label=_("Your display name"), max_length=40, required=False)
    series = forms.TypedChoiceField(
        label=gettext_lazy("Games in the series, on one score pad"),
        choices=[(n, str(n)) for n in range(1, 7)],
        coerce=int,
        initial=1,
        required=False,
        empty_value=1,  # type: ignore[arg-type]  # django-stubs: any value, not only str
        error_messages={"invalid_choice": gettext_lazy("A series has 1 to 6 games.")},
    )
    # The creator's dice seed, proposed by the page (games/dice.py); the service checks it.
    client_seed = forms.CharField(required=False, strip=False, widget=forms.HiddenInput)


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
    client_seed = forms.CharField(required=False, strip=False, widget=forms.HiddenInput)


class SeedForm(VersionForm):
    """A seated player's own dice seed, changed in the lobby (checked by the service)."""

    client_seed = forms.CharField(label=gettext_lazy("Your dice seed"), strip=False)


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
        # Every rule set's box ids: the game's own rule set decides which it has (the
        # service refuses a box of another rule set with a sentence).
        choices=[
            (box, box) for box in dict.fromkeys(b.value for r in RULESETS.values() for b in r.boxes)
        ],
        error_messages={
            "required": _("Choose a box on the scorecard to score."),
            "invalid_choice": _("There is no such box on the scorecard."),
        },
    )

    def category_value(self) -> str:
        return str(self.cleaned_data["category"])


class AddBotForm(VersionForm):
    level = forms.ChoiceField(
        label=_("Computer player"),
        choices=BotLevel.choices,
        initial=BotLevel.CASUAL,
        error_messages={"invalid_choice": _("Choose Coach, Coach (to win), Casual or Beginner.")},
    )


class RemoveBotForm(VersionForm):
    position = forms.IntegerField(min_value=0, max_value=MAX_SEATS - 1, widget=forms.HiddenInput)


# An account holds an address of up to 254 characters (Django's User.email).
EMAIL_MAX_LENGTH = 254
# Our own words for a malformed address (Django's are not right in every language).
EMAIL_ERRORS = {"invalid": gettext_lazy("Enter an e-mail address such as ann@example.com.")}


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=gettext_lazy("E-mail address (optional)"),
        required=False,
        max_length=EMAIL_MAX_LENGTH,
        help_text=gettext_lazy("Only to tell you when it is your turn in a daily game."),
        error_messages=EMAIL_ERRORS,
    )

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        fields = ("username", "email")

    def clean_username(self) -> str:
        """Django's check (taken, in any case), and no name of a deleted account: nobody
        may pass for a former player in the games that once named them."""
        username = super().clean_username()
        if username and RetiredUsername.is_retired(username):
            raise forms.ValidationError(
                _(
                    "This username belonged to an account that was deleted, and is not given "
                    "out again. Please choose another."
                ),
                code="retired",
            )
        return username


class EmailForm(forms.Form):
    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        required=False,
        max_length=EMAIL_MAX_LENGTH,
        help_text=gettext_lazy("Leave it empty to get no e-mails."),
        error_messages=EMAIL_ERRORS,
    )


class AccountDeleteForm(forms.Form):
    """Deleting an account: confirmed with its password."""

    password = forms.CharField(
        label=gettext_lazy("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": gettext_lazy("Type your password to delete your account.")},
    )

    def __init__(self, user: AbstractBaseUser, *args: Any, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(
                _("That is not your password; your account is not deleted."), code="wrong"
            )
        return password
