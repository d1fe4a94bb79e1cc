"""The moderators' queue of chat reports in the Django admin ("Chat reports"): each report
with its message, its table and the author's recent messages; actions hide the message
(gone from every open page, live) and silence its author site-wide for 24 hours or 7 days
(games/services/chat.py). Registered by games/admin.py."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.models import PHRASES, ChatMessage, ChatReport
from games.services import chat as chat_services

RECENT = 10


def _said(message: ChatMessage) -> str:
    return f"[{message.phrase}] {PHRASES[message.phrase]}" if message.phrase else message.text


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ["created_at", "reason", "said", "author", "table", "hidden", "handled_at"]
    list_filter = ["reason", ("handled_at", admin.EmptyFieldListFilter)]
    ordering = ["handled_at", "-created_at"]
    readonly_fields = (
        "said",
        "author",
        "table",
        "reason",
        "reporter",
        "created_at",
        "handled_at",
        "recent",
    )
    fields = readonly_fields
    actions = ["hide", "silence_day", "silence_week"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChatReport]:
        return super().get_queryset(request).select_related("message__game")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description=_("message"))
    def said(self, report: ChatReport) -> str:
        return _said(report.message)

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> str:
        return f"{report.message.name} ({report.message.author.split(':')[0]})"

    @admin.display(description=_("table"))
    def table(self, report: ChatReport) -> SafeString:
        game = report.message.game
        return format_html('<a href="{}">{}</a>', game.get_absolute_url(), game.code)

    @admin.display(description=_("hidden"), boolean=True)
    def hidden(self, report: ChatReport) -> bool:
        return report.message.hidden_at is not None

    @admin.display(description=_("the author's recent messages"))
    def recent(self, report: ChatReport) -> SafeString:
        rows = ChatMessage.objects.filter(author=report.message.author).select_related("game")
        latest = rows.order_by("-id")[:RECENT]
        return format_html(
            "<ol>{}</ol>",
            format_html_join(
                "",
                "<li>{} · {} · {}</li>",
                ((m.created_at, m.game.code, _said(m)) for m in latest),
            ),
        )

    @admin.action(description=_("Hide the message from every page"))
    def hide(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        ids = set(queryset.values_list("message_id", flat=True))
        hidden = sum(chat_services.chat_message_hide(message_id=pk) for pk in ids)
        self.message_user(
            request,
            ngettext("%(count)d message hidden.", "%(count)d messages hidden.", hidden)
            % {"count": hidden},
            messages.SUCCESS,
        )

    def _silence(self, request: HttpRequest, queryset: QuerySet[ChatReport], duration: str) -> None:
        authors: dict[str, int] = {}
        for report in queryset:
            authors.setdefault(report.message.author, report.message_id)
        for message_id in authors.values():
            chat_services.chat_author_silence(message_id=message_id, duration=duration)
        self.message_user(
            request,
            gettext("Silenced: %(count)d.") % {"count": len(authors)},
            messages.SUCCESS,
        )

    @admin.action(description=_("Silence the author for 24 hours"))
    def silence_day(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        self._silence(request, queryset, "24h")

    @admin.action(description=_("Silence the author for 7 days"))
    def silence_week(self, request: HttpRequest, queryset: QuerySet[ChatReport]) -> None:
        self._silence(request, queryset, "7d")
