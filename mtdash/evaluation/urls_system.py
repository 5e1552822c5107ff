"""URLs of the system pages (included by mtdash.evaluation.urls)."""

from django.urls import path

from mtdash.evaluation.systems import views as system_views
from mtdash.evaluation.systems import word_counts_upload as word_counts

urlpatterns = [
    path("outputs/<int:pk>/", system_views.output_detail, name="output_detail"),
    path(
        "outputs/<int:pk>/sentences/",
        system_views.output_sentences,
        name="output_sentences",
    ),
    path(
        "outputs/<int:pk>/sentences/<int:number>/",
        system_views.sentence_detail,
        name="sentence_detail",
    ),
    path(
        "test-sets/<int:pk>/word-counts/new/",
        word_counts.word_counts_new,
        name="word_counts_new",
    ),
]
