from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "mtdash.api"
    label = "api"
    verbose_name = "REST API"

    def ready(self) -> None:
        # Registers the OpenAPI description of the token authentication.
        from mtdash.api import schema  # noqa: F401
