"""API tokens and the responses kept for ``Idempotency-Key`` retries.

A token's key is shown once, when it is created; only its SHA-256 hash is
stored (a database dump gives no usable key) with a short prefix that lets a
person tell their tokens apart.
"""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone

KEY_PREFIX = "mtd_"  # makes a leaked key easy to recognise (secret scanners)
SHOWN_CHARS = 12  # "mtd_" and 8 random characters


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def active(self) -> ApiTokenQuerySet:
        return self.filter(revoked_at__isnull=True)


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, blank=True)
    prefix = models.CharField(max_length=SHOWN_CHARS, help_text="start of the key")
    key_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256, hex")
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = "API token"

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.name or 'unnamed'}) of {self.user}"

    @classmethod
    def issue(cls, user, name: str = "") -> tuple[ApiToken, str]:
        """A new token and its key; the key is not stored and cannot be shown again."""
        key = KEY_PREFIX + secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user, name=name, prefix=key[:SHOWN_CHARS], key_hash=hash_key(key)
        )
        return token, key

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    def revoke(self) -> bool:
        """Refuse the key from now on; False if it was revoked already."""
        revoked = (
            ApiToken.objects.filter(pk=self.pk)
            .active()
            .update(revoked_at=timezone.now())
        )
        self.refresh_from_db(fields=["revoked_at"])
        return bool(revoked)


class IdempotentRequest(models.Model):
    """The first response to a request sent with an ``Idempotency-Key``.

    One row per user and key (a unique constraint), written in the same
    transaction as what the request created: two concurrent requests with
    one key cannot both create, and a retry gets this response back.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(max_length=255)
    endpoint = models.CharField(max_length=300, help_text="method and path")
    fingerprint = models.CharField(max_length=64, help_text="SHA-256 of the request")
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"], name="one_response_per_idempotency_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.endpoint} with key {self.key!r} -> {self.status_code}"
