from django.contrib import admin
from django.urls import include, path

from games.limits import limit_failed_logins

urlpatterns = [
    # The admin's log-in, under the same limit on failed attempts as the site's.
    path("admin/login/", limit_failed_logins(admin.site.login)),
    path("admin/", admin.site.urls),
    path("", include("games.urls")),
]
