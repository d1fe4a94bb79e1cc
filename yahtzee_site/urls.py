from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.urls import include, path
from django.views import defaults
from django.views.i18n import JavaScriptCatalog

from games import languages
from games.limits import limit_failed_logins
from games.views import pages

urlpatterns = [
    # The admin's log-in, under the same limit on failed attempts as the site's.
    path("admin/login/", limit_failed_logins(admin.site.login)),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", languages.language_set, name="set_language"),
    path("i18n/js/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("rules/", pages.rules, name="rules"),
    path("rules/<slug:ruleset>/", pages.rules_of, name="rules_of"),
    path("", include("games.urls")),
]

if settings.DEBUG:
    # With DEBUG on, Django answers errors with its technical pages: the site's own error
    # pages, as a visitor meets them in production, are here to look at (and for the
    # browser tests, whose server runs with DEBUG on).
    urlpatterns += [
        path("errors/400/", defaults.bad_request, {"exception": SuspiciousOperation()}),
        path("errors/403/", defaults.permission_denied, {"exception": PermissionDenied()}),
        path("errors/404/", defaults.page_not_found, {"exception": Http404()}),
        path("errors/500/", defaults.server_error),
    ]
