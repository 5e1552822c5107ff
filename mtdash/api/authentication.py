"""``Authorization: Token <key>``: the key's hash must name an unrevoked token
of an active user."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions

from mtdash.api.models import ApiToken, hash_key

# Recording every use would make each read a write; once a minute is enough
# for "last used" on the account page.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class TokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None  # not ours: session authentication may still apply
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(
                "Send the header as 'Authorization: Token <key>'."
            )
        try:
            key = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid token.") from None
        token = (
            ApiToken.objects.active()
            .select_related("user")
            .filter(key_hash=hash_key(key))
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        _note_use(token)
        return token.user, token

    def authenticate_header(self, request) -> str:
        # Makes DRF answer 401 (with WWW-Authenticate), not 403, without a token.
        return self.keyword


def _note_use(token: ApiToken) -> None:
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
