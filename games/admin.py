"""The Django admin's moderation pages: fair-play reviews (games/services/fair_play.py), and
accounts deleted the way an account deletes itself (games/services/accounts.py).

A moderator sees every flagged account with its figures and links to the games the flag
was raised on, and clears it (back on the leaderboard; those games never flag it again)
or confirms it (off the leaderboard for good; its history page says so). No rating
changes either way."""

from __future__ import annotations

from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import services
from games.models import FairPlayReview, Tournament
from games.services.fair_play import fair_play_decide


class AccountAdmin(UserAdmin):
    """Django's user admin, except that deleting an account goes through the same service as
    the account's own deletion page: its name is retired, its running games are left to
    the coach and its ended seats stay as "A former player", never as a bare deleted row."""

    def delete_model(self, request: HttpRequest, obj: object) -> None:
        services.account_delete(user_id=obj.pk)  # type: ignore[attr-defined]

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet) -> None:
        for user_id in list(queryset.values_list("pk", flat=True)):
            services.account_delete(user_id=user_id)


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), AccountAdmin)


@admin.register(FairPlayReview)
class FairPlayReviewAdmin(admin.ModelAdmin):
    list_display = (
        "user",
        "status",
        "games_count",
        "choices",
        "agreed",
        "agreement_shown",
        "flagged_at",
        "decided_by",
        "game_links",
    )
    list_filter = ("status",)
    search_fields = ("user__username",)
    readonly_fields = (
        "user",
        "status",
        "choices",
        "agreed",
        "agreement_shown",
        "flagged_at",
        "decided_at",
        "decided_by",
        "game_links",
    )
    exclude = ("games",)
    actions = ("clear", "confirm")

    def get_queryset(self, request: HttpRequest) -> QuerySet[FairPlayReview]:
        return super().get_queryset(request).select_related("user", "decided_by")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # flags are raised by the review, never by hand

    @admin.display(description=_("games"))
    def games_count(self, review: FairPlayReview) -> int:
        return review.games.count()

    @admin.display(description=_("agreement"))
    def agreement_shown(self, review: FairPlayReview) -> str:
        return f"{review.agreement:.1%}"

    @admin.display(description=_("rated games"))
    def game_links(self, review: FairPlayReview) -> SafeString:
        return format_html_join(
            mark_safe("<br>"),  # a fixed separator
            '<a href="{}">{}</a> · <a href="{}">{}</a>',
            (
                (
                    reverse("game", args=[game.code]),
                    game.code,
                    reverse("game_replay", args=[game.code]),
                    gettext("Replay"),
                )
                for game in review.games.order_by("-finished_at")
            ),
        )

    def _decide(
        self, request: HttpRequest, queryset: QuerySet[FairPlayReview], confirm: bool
    ) -> None:
        for review in queryset:
            fair_play_decide(review_id=review.pk, moderator_id=request.user.pk, confirm=confirm)
        count = queryset.count()
        done = ngettext(
            "%(count)d fair-play review decided.", "%(count)d fair-play reviews decided.", count
        )
        self.message_user(request, done % {"count": count}, messages.SUCCESS)

    @admin.action(
        description=_("Clear: back on the leaderboard, not flagged again for these games")
    )
    def clear(self, request: HttpRequest, queryset: QuerySet[FairPlayReview]) -> None:
        self._decide(request, queryset, confirm=False)

    @admin.action(description=_("Confirm: off the leaderboard for good"))
    def confirm(self, request: HttpRequest, queryset: QuerySet[FairPlayReview]) -> None:
        self._decide(request, queryset, confirm=True)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    """Arena tournaments: staff pin one on the home page here (or with the button on its page)."""

    list_display = ("name", "starts_at", "minutes", "ruleset", "pinned")
    list_editable = ("pinned",)
    fields = ("name", "pinned", "public")


from games import chat_admin  # noqa: E402, F401  (the chat reports queue registers itself)
