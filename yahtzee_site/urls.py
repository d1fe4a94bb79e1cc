from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from django.views.i18n import JavaScriptCatalog

from games import languages
from games.limits import limit_failed_logins

urlpatterns = [
    # The admin's log-in, under the same limit on failed attempts as the site's.
    path("admin/login/", limit_failed_logins(admin.site.login)),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", languages.language_set, name="set_language"),
    path("i18n/js/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("rules/", TemplateView.as_view(template_name="rules.html"), name="rules"),
    path("", include("games.urls")),
]
