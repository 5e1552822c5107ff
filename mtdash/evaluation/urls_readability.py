"""Routes filled in by issue #12."""

urlpatterns: list = []
