from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from django.views.i18n import JavaScriptCatalog

from games import languages

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/setlang/", languages.language_set, name="set_language"),
    path("i18n/js/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("rules/", TemplateView.as_view(template_name="rules.html"), name="rules"),
    path("", include("games.urls")),
]
