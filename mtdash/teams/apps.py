from django.apps import AppConfig


class TeamsConfig(AppConfig):
    name = "mtdash.teams"
    label = "teams"
