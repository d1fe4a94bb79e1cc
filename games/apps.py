from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Yahtzee games"

    def ready(self) -> None:
        from . import broadcast, services

        services.on_game_changed(broadcast.announce)
