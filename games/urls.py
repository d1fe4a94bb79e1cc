from django.contrib.auth import views as auth_views
from django.urls import path

from . import views
from .views_practice import practice_page

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.game_create, name="game_create"),
    path("practice/", practice_page, name="practice"),
    path("g/<str:code>/", views.game_detail, name="game"),
    path("g/<str:code>/state.json", views.game_state, name="game_state"),
    path("g/<str:code>/join/", views.game_join, name="game_join"),
    path("g/<str:code>/leave/", views.game_leave, name="game_leave"),
    path("g/<str:code>/bots/add/", views.game_add_bot, name="game_add_bot"),
    path("g/<str:code>/bots/remove/", views.game_remove_bot, name="game_remove_bot"),
    path("g/<str:code>/start/", views.game_start, name="game_start"),
    path("g/<str:code>/roll/", views.turn_roll, name="turn_roll"),
    path("g/<str:code>/keep/", views.turn_keep, name="turn_keep"),
    path("g/<str:code>/score/", views.turn_score, name="turn_score"),
    path("g/<str:code>/rematch/", views.game_rematch, name="game_rematch"),
    path("u/<str:username>/", views.history, name="history"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/login/", views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
]
