"""``python -m scoring``: one subcommand per capability (score, list-metrics,
orange, correlate, compare, complexity, train-red); see :mod:`scoring.cli.main`."""
