"""URLs of the compare pages (included by mtdash.evaluation.urls)."""

from django.urls import path

from mtdash.evaluation.compare import views as compare_views

urlpatterns: list = [
    path(
        "test-sets/<int:pk>/compare/",
        compare_views.compare_outputs,
        name="compare_outputs",
    ),
    path(
        "test-sets/<int:pk>/compare/ngrams/",
        compare_views.compare_ngrams,
        name="compare_ngrams",
    ),
]
