from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "mtdash.api"
    label = "api"
    verbose_name = "REST API"
