"""The Celery application shared by the web server (to enqueue) and workers."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mtdash.settings")

app = Celery("mtdash")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["mtdash.common"])  # the sweeper
