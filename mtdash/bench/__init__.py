"""The page-time benchmark (``python manage.py bench_pages``): a synthetic
leaderboard at the scale the README names, and the time each page takes on it."""
