# One image for the web server, the workers and beat; they differ only by
# command (docker-compose.yml). Runs as an unprivileged user.
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 MTDASH_DATA_DIR=/data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY mtdash ./mtdash
COPY scoring ./scoring
COPY templates ./templates
COPY static ./static
COPY manage.py ./
RUN pip install --no-cache-dir . \
    && useradd --system --uid 10001 --home-dir /data --no-create-home mtdash \
    && mkdir -p /data/artifacts
# Static files collected at build time into $MTDASH_DATA_DIR/staticfiles and
# served by WhiteNoise. The key is for this one command only, so that no
# secret key file is written into the image.
RUN MTDASH_SECRET_KEY=collectstatic-at-build-time-only-not-a-secret \
    python manage.py collectstatic --noinput \
    && chown -R mtdash /data
USER mtdash
EXPOSE 8000
# mtdash/gunicorn_conf.py: preload_app, the master warms the application
# (views, templates, the upload forms' metrics) before it listens and forks.
CMD ["gunicorn", "-c", "python:mtdash.gunicorn_conf", "mtdash.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
