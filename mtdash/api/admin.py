from django.contrib import admin

from mtdash.api.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens by owner, for revoking a leaked one; keys are never shown (only
    their hash is stored)."""

    list_display = (
        "prefix",
        "name",
        "user",
        "created_at",
        "last_used_at",
        "revoked_at",
    )
    list_filter = ("revoked_at",)
    search_fields = ("prefix", "name", "user__username")
    readonly_fields = ("user", "prefix", "key_hash", "created_at", "last_used_at")
    actions = ["revoke"]

    def has_add_permission(self, request) -> bool:
        return False  # a key is made by the account page or create_api_token

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset):
        revoked = sum(token.revoke() for token in queryset)
        self.message_user(request, f"Revoked {revoked} token(s).")
