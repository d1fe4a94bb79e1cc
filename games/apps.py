from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Yahtzee games"

    def ready(self) -> None:
        from . import broadcast, jobs, languages, rendering, services  # noqa: F401

        services.on_game_changed(rendering.remember)
        services.on_game_changed(broadcast.announce)
        services.on_game_changed(jobs.on_change)
