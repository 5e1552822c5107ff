"""WSGI entry point (gunicorn mtdash.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mtdash.settings")
application = get_wsgi_application()
