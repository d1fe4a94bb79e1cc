from django.contrib.auth import views as auth_views
from django.urls import path, re_path

from games import converters
from games.limits import (
    limit_failed_logins,
    limit_failed_passwords,
    limit_failed_signups,
    limit_password_resets,
    limit_table_creation,
)
from games.views import accounts, friends, inbox, pages, play_now, table, tournaments
from games.views.practice import practice_page

converters.register()

urlpatterns = [
    path("", table.home, name="home"),
    path("games/new/", limit_table_creation(inbox.inviting(table.game_create)), name="game_create"),
    path("practice/", practice_page, name="practice"),
    path("play/", limit_table_creation(play_now.play), name="play"),
    path("play/cancel/", play_now.play_leave, name="play_cancel"),
    path(
        "play/computer/",
        limit_table_creation(play_now.play_against_computer),
        name="play_computer",
    ),
    path("play/status.json", play_now.play_status_json, name="play_status"),
    path("g/<game_code:code>/", table.game_detail, name="game"),
    path("g/<game_code:code>/state.json", table.game_state, name="game_state"),
    path("g/<game_code:code>/moves.json", pages.game_moves, name="game_moves"),
    path("g/<game_code:code>/verify/", pages.game_verify, name="game_verify"),
    path("g/<game_code:code>/replay/", pages.game_replay, name="game_replay"),
    path("g/<game_code:code>/series/", pages.game_series, name="game_series"),
    path("g/<game_code:code>/join/", table.game_join, name="game_join"),
    path("g/<game_code:code>/seed/", table.seat_set_client_seed, name="seat_set_client_seed"),
    path("g/<game_code:code>/leave/", table.game_leave, name="game_leave"),
    path("g/<game_code:code>/takeover/", table.turn_takeover, name="turn_takeover"),
    path("g/<game_code:code>/back/", table.seat_return, name="seat_return"),
    path("g/<game_code:code>/bots/add/", table.game_add_bot, name="game_add_bot"),
    path("g/<game_code:code>/bots/remove/", table.game_remove_bot, name="game_remove_bot"),
    path("g/<game_code:code>/start/", table.game_start, name="game_start"),
    path("g/<game_code:code>/roll/", table.turn_roll, name="turn_roll"),
    path("g/<game_code:code>/keep/", table.turn_keep, name="turn_keep"),
    path("g/<game_code:code>/score/", table.turn_score, name="turn_score"),
    path("g/<game_code:code>/rematch/", table.game_rematch, name="game_rematch"),
    path("g/<game_code:code>/invite/", inbox.game_invite, name="game_invite"),
    path("friends/", friends.friends_page, name="friends"),
    path("friends/request/", friends.friend_request, name="friend_request"),
    path("friends/accept/", friends.friend_accept, name="friend_accept"),
    path("friends/decline/", friends.friend_decline, name="friend_decline"),
    path("friends/cancel/", friends.friend_cancel, name="friend_cancel"),
    path("friends/remove/", friends.friend_remove, name="friend_remove"),
    path("friends/block/", friends.user_block, name="user_block"),
    path("friends/unblock/", friends.user_unblock, name="user_unblock"),
    path("friends/settings/", friends.social_settings, name="social_settings"),
    path("inbox/", inbox.inbox_page, name="inbox"),
    path("inbox.json", inbox.inbox_json, name="inbox_json"),
    path("inbox/dismiss/", inbox.inbox_dismiss, name="inbox_dismiss"),
    path("u/<username:username>/", pages.history, name="history"),
    path("tournaments/", tournaments.tournaments, name="tournaments"),
    path(
        "tournaments/new/",
        limit_table_creation(tournaments.tournament_new),
        name="tournament_new",
    ),
    path("tournaments/<int:tournament_id>/", tournaments.tournament, name="tournament"),
    path(
        "tournaments/<int:tournament_id>.json",
        tournaments.tournament_json,
        name="tournament_json",
    ),
    path("tournaments/<int:tournament_id>/join/", tournaments.join, name="tournament_join"),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        tournaments.withdraw,
        name="tournament_withdraw",
    ),
    path("tournaments/<int:tournament_id>/pin/", tournaments.pin, name="tournament_pin"),
    path("leaderboard/", pages.leaderboard, name="leaderboard"),
    path("accounts/signup/", limit_failed_signups(accounts.signup), name="signup"),
    path("accounts/", accounts.account, name="account"),
    path("accounts/login/", limit_failed_logins(accounts.LoginView.as_view()), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "accounts/password/",
        limit_failed_passwords(accounts.PasswordChangeView.as_view()),
        name="password_change",
    ),
    path(
        "accounts/password/reset/",
        limit_password_resets(accounts.PasswordResetView.as_view()),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        accounts.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        limit_failed_passwords(accounts.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        accounts.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path(
        "accounts/delete/", limit_failed_passwords(accounts.account_delete), name="account_delete"
    ),
    path("accounts/data.json", accounts.account_data, name="account_data"),
    # Links whose code or username the site could not have made: a 404 saying so, before
    # anything reaches the database (games/converters.py). A well-formed one is left to
    # the URLs above, so /g/<code> without its last slash is still sent on to /g/<code>/.
    re_path(rf"^g/(?!{converters.GameCodeConverter.regex}(?:/|$))", pages.no_such_game),
    re_path(rf"^u/(?!{converters.UsernameConverter.regex}(?:/|$))", pages.no_such_player),
]
