"""URLs of the references pages (included by mtdash.evaluation.urls)."""

from django.urls import path

from mtdash.evaluation.references import views as reference_views

urlpatterns = [
    path(
        "test-sets/<int:pk>/references/",
        reference_views.reference_diagnostics,
        name="reference_diagnostics",
    ),
]
