from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "mtdash.evaluation"
    label = "evaluation"
