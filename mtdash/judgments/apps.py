from django.apps import AppConfig


class JudgmentsConfig(AppConfig):
    """Human judgments and externally computed metric scores of a test set."""

    name = "mtdash.judgments"
    label = "judgments"
