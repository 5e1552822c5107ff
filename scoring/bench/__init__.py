"""The project's benchmark (``python -m scoring.bench``): see ``__main__``."""
