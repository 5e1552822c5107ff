"""The judgments' and external scores' endpoints under /api/v1/."""

urlpatterns: list = []
