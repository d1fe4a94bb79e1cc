from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from . import converters, pages, views
from .limits import limit_failed_logins, limit_failed_signups, limit_table_creation
from .views_practice import practice_page

converters.register()

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", limit_table_creation(views.game_create), name="game_create"),
    path("practice/", practice_page, name="practice"),
    path("g/<game_code:code>/", views.game_detail, name="game"),
    path("g/<game_code:code>/state.json", views.game_state, name="game_state"),
    path("g/<game_code:code>/moves.json", pages.game_moves, name="game_moves"),
    path("g/<game_code:code>/verify/", pages.game_verify, name="game_verify"),
    path("g/<game_code:code>/replay/", pages.game_replay, name="game_replay"),
    path("g/<game_code:code>/series/", pages.game_series, name="game_series"),
    path("g/<game_code:code>/join/", views.game_join, name="game_join"),
    path("g/<game_code:code>/seed/", views.seat_set_client_seed, name="seat_set_client_seed"),
    path("g/<game_code:code>/leave/", views.game_leave, name="game_leave"),
    path("g/<game_code:code>/takeover/", views.turn_takeover, name="turn_takeover"),
    path("g/<game_code:code>/back/", views.seat_return, name="seat_return"),
    path("g/<game_code:code>/bots/add/", views.game_add_bot, name="game_add_bot"),
    path("g/<game_code:code>/bots/remove/", views.game_remove_bot, name="game_remove_bot"),
    path("g/<game_code:code>/start/", views.game_start, name="game_start"),
    path("g/<game_code:code>/roll/", views.turn_roll, name="turn_roll"),
    path("g/<game_code:code>/keep/", views.turn_keep, name="turn_keep"),
    path("g/<game_code:code>/score/", views.turn_score, name="turn_score"),
    path("g/<game_code:code>/rematch/", views.game_rematch, name="game_rematch"),
    path("u/<username:username>/", views.history, name="history"),
    path("leaderboard/", pages.leaderboard, name="leaderboard"),
    path("accounts/signup/", limit_failed_signups(views.signup), name="signup"),
    path("accounts/", views.account, name="account"),
    path("accounts/login/", limit_failed_logins(views.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Links whose code or username the site could not have made: a 404 saying so, before
    # anything reaches the database (games/converters.py). A well-formed one is left to
    # the URLs above, so /g/<code> without its last slash is still sent on to /g/<code>/.
    re_path(rf"^g/(?!{converters.GameCodeConverter.regex}(?:/|$))", pages.no_such_game),
    re_path(rf"^u/(?!{converters.UsernameConverter.regex}(?:/|$))", pages.no_such_player),
]
