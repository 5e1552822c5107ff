"""The project's URLs plus the judgments' API under /api/v1/ (see support)."""

from tests.web.judgments.support import api_urlpatterns

urlpatterns = api_urlpatterns()
