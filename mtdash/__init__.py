"""mtdash: a web dashboard for machine translation evaluation."""

from mtdash.celery import app as celery_app

__all__ = ("celery_app",)
