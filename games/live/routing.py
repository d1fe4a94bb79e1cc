from django.urls import path

from games import converters
from games.live.consumers import GameConsumer, NoGameConsumer
from games.live.play_now import PlayNowConsumer
from games.live.site import SiteConsumer
from games.live.tournaments import TournamentConsumer

converters.register()

websocket_urlpatterns = [
    path("ws/site/", SiteConsumer.as_asgi()),  # a signed-in account's notices
    path("ws/play/", PlayNowConsumer.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/g/<game_code:code>/", GameConsumer.as_asgi()),
    # Any other code names no game: refused with a close code, before it reaches the
    # channel layer (which refuses long or non-ASCII group names) or the database.
    path("ws/g/<str:code>/", NoGameConsumer.as_asgi()),
]
