"""The page-time benchmark (``python manage.py bench_pages``): a synthetic
leaderboard of the size issue #11 names, and the time each page takes on it."""
