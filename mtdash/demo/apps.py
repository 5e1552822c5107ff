from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo data's commands (load_demo, load_orange_demo)."""

    name = "mtdash.demo"
    label = "demo"
