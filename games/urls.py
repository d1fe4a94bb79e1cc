from django.contrib.auth import views as auth_views
from django.urls import path

from . import pages, views
from .limits import limit_failed_logins, limit_failed_signups, limit_table_creation
from .views_practice import practice_page

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", limit_table_creation(views.game_create), name="game_create"),
    path("practice/", practice_page, name="practice"),
    path("g/<str:code>/", views.game_detail, name="game"),
    path("g/<str:code>/state.json", views.game_state, name="game_state"),
    path("g/<str:code>/moves.json", pages.game_moves, name="game_moves"),
    path("g/<str:code>/verify/", pages.game_verify, name="game_verify"),
    path("g/<str:code>/replay/", pages.game_replay, name="game_replay"),
    path("g/<str:code>/series/", pages.game_series, name="game_series"),
    path("g/<str:code>/join/", views.game_join, name="game_join"),
    path("g/<str:code>/seed/", views.seat_set_client_seed, name="seat_set_client_seed"),
    path("g/<str:code>/leave/", views.game_leave, name="game_leave"),
    path("g/<str:code>/takeover/", views.turn_takeover, name="turn_takeover"),
    path("g/<str:code>/back/", views.seat_return, name="seat_return"),
    path("g/<str:code>/bots/add/", views.game_add_bot, name="game_add_bot"),
    path("g/<str:code>/bots/remove/", views.game_remove_bot, name="game_remove_bot"),
    path("g/<str:code>/start/", views.game_start, name="game_start"),
    path("g/<str:code>/roll/", views.turn_roll, name="turn_roll"),
    path("g/<str:code>/keep/", views.turn_keep, name="turn_keep"),
    path("g/<str:code>/score/", views.turn_score, name="turn_score"),
    path("g/<str:code>/rematch/", views.game_rematch, name="game_rematch"),
    path("u/<str:username>/", views.history, name="history"),
    path("leaderboard/", pages.leaderboard, name="leaderboard"),
    path("accounts/signup/", limit_failed_signups(views.signup), name="signup"),
    path("accounts/", views.account, name="account"),
    path("accounts/login/", limit_failed_logins(views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
