"""The project itself as an app: the place for its system checks and its signal wiring."""

from django.apps import AppConfig


class SiteConfig(AppConfig):
    name = "yahtzee_site"
    verbose_name = "Yahtzee site"

    def ready(self) -> None:
        from . import checks  # noqa: F401  registers the deployment checks
