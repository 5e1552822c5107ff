"""Demo data shown on a fresh mtdash install.

:func:`.corpus.demo_test_set` returns a small French→English news test set
with four human references; :func:`.systems.demo_systems` returns demo MT
systems whose quality ranking is known by construction. Standard library
only, so the Django management command that loads them adds no dependencies.
"""
