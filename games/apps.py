from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Yahtzee games"

    def ready(self) -> None:
        from games import jobs, services
        from games.live import broadcast, chat, presence_pushes, site_pushes
        from games.live import play_now as play_now_live
        from games.live import tournaments as tournaments_live
        from games.services import chat as chat_services
        from games.services import play_now, tournament_scoring, tournaments

        jobs.on_presence_lost(presence_pushes.push_presence_now)
        services.on_game_changed(broadcast.announce)
        services.on_game_changed(jobs.on_change)
        services.on_inbox_changed(site_pushes.tell)
        play_now.on_ticket_changed(play_now_live.push)
        chat_services.on_chat_changed(chat.tell)
        if tournaments.after_game_ended not in tournament_scoring.after_game:
            tournament_scoring.after_game.append(tournaments.after_game_ended)
        tournament_scoring.on_standings_changed(tournaments_live.push)
