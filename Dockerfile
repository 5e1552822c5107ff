# One image for the web server and the workers; they differ only by command.
FROM python:3.11-slim-bookworm
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 MTDASH_DATA_DIR=/data
WORKDIR /app
COPY pyproject.toml README.md ./
COPY mtdash ./mtdash
COPY scoring ./scoring
COPY templates ./templates
COPY static ./static
COPY manage.py ./
RUN pip install --no-cache-dir . && mkdir -p /data
EXPOSE 8000
CMD ["gunicorn", "mtdash.wsgi", "--bind", "0.0.0.0:8000", "--workers", "3"]
