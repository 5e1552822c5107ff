from django.urls import path

from mtdash.api.views import account as account_views

urlpatterns = [
    path("tokens/", account_views.tokens, name="api_tokens"),
    path(
        "tokens/<int:pk>/revoke/", account_views.token_revoke, name="api_token_revoke"
    ),
]
