"""The ORANGE app's pages: n-best lists, ORANGE jobs and their reviews."""

from django.urls import path

from mtdash.orange import views
from mtdash.orange.reviews import views as review_views

urlpatterns = [
    path("orange/", views.orange_home, name="orange_home"),
    path("test-sets/<int:pk>/orange/", views.orange_test_set, name="orange_test_set"),
    path("test-sets/<int:pk>/orange/nbest/new/", views.nbest_new, name="nbest_new"),
    path("orange/nbest/<int:pk>/", views.nbest_detail, name="nbest_detail"),
    path("orange/nbest/<int:pk>/status.json", views.nbest_status, name="nbest_status"),
    path("orange/jobs/<int:pk>/", views.orange_job_detail, name="orange_job_detail"),
    path(
        "orange/jobs/<int:pk>/status.json",
        views.orange_job_status,
        name="orange_job_status",
    ),
    path(
        "orange/jobs/<int:pk>/orange.<str:fmt>",
        views.orange_job_export,
        name="orange_job_export",
    ),
    path(
        "orange/jobs/<int:pk>/retry/", views.orange_job_retry, name="orange_job_retry"
    ),
    path(
        "orange/jobs/<int:pk>/reviews/new/",
        review_views.orange_review_new,
        name="orange_review_new",
    ),
    path("orange/reviews/<int:pk>/", review_views.orange_review, name="orange_review"),
    path(
        "orange/reviews/<int:pk>/report/",
        review_views.orange_review_report,
        name="orange_review_report",
    ),
    path(
        "orange/reviews/<int:pk>/report.<str:fmt>",
        review_views.orange_review_export,
        name="orange_review_export",
    ),
]
