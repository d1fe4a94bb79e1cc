from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Yahtzee games"

    def ready(self) -> None:
        from games import jobs, services
        from games.live import broadcast, chat, presence_pushes, site_pushes
        from games.services import chat as chat_services

        jobs.on_presence_lost(presence_pushes.push_presence_now)
        services.on_game_changed(broadcast.announce)
        services.on_game_changed(jobs.on_change)
        services.on_inbox_changed(site_pushes.tell)
        chat_services.on_chat_changed(chat.tell)
