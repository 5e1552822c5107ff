"""URLs of the manage pages (included by mtdash.evaluation.urls): each
answers GET with a confirmation page and does its work on POST."""

from django.urls import path

from mtdash.evaluation.manage import views as manage_views

urlpatterns = [
    path("systems/<int:pk>/rename/", manage_views.system_rename, name="system_rename"),
    path("systems/<int:pk>/delete/", manage_views.system_delete, name="system_delete"),
    path("outputs/<int:pk>/hide/", manage_views.output_hide, name="output_hide"),
    path("outputs/<int:pk>/delete/", manage_views.output_delete, name="output_delete"),
    path(
        "test-sets/<int:pk>/rename/",
        manage_views.test_set_rename,
        name="test_set_rename",
    ),
    path("test-sets/<int:pk>/hide/", manage_views.test_set_hide, name="test_set_hide"),
    path(
        "test-sets/<int:pk>/delete/",
        manage_views.test_set_delete,
        name="test_set_delete",
    ),
    path(
        "test-sets/<int:pk>/fill-missing/",
        manage_views.test_set_fill_missing,
        name="test_set_fill_missing",
    ),
]
