from django.urls import path

from mtdash.evaluation import views

urlpatterns = [
    path("", views.home, name="home"),
    path("test-sets/new/", views.test_set_new, name="test_set_new"),
    path("test-sets/<int:pk>/", views.test_set_detail, name="test_set_detail"),
    path(
        "test-sets/<int:pk>/leaderboard.<str:fmt>",
        views.test_set_export,
        name="test_set_export",
    ),
    path("test-sets/<int:pk>/outputs/new/", views.output_new, name="output_new"),
    path("test-sets/<int:pk>/rescore/", views.test_set_rescore, name="test_set_rescore"),
    path("jobs/<int:pk>/", views.job_detail, name="job_detail"),
    path("jobs/<int:pk>/status.json", views.job_status, name="job_status"),
]
