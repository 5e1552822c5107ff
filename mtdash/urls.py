from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from mtdash.api.urls import account_urlpatterns
from mtdash.common.health import healthz

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("account/", include(account_urlpatterns)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("mtdash.api.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("mtdash.evaluation.urls")),
    path("", include("mtdash.orange.urls")),
    path("", include("mtdash.judgments.urls")),
]

# JSON under /api/ (503 with Retry-After while the database is away).
handler500 = "mtdash.api.outage.server_error"
