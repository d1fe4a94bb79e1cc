websocket_urlpatterns: list = []
