from django.apps import AppConfig


class OrangeConfig(AppConfig):
    name = "mtdash.orange"
    verbose_name = "ORANGE"

    def ready(self) -> None:
        from mtdash.orange import signals  # noqa: F401  (connects the receivers)
