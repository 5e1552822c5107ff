"""Demo data shown on a fresh mtdash install.

:func:`demo_test_set` returns a small French→English news test set with four
human references; :func:`demo_systems` returns demo MT systems whose quality
ranking is known by construction. Standard library only, so the Django
management command that loads them adds no dependencies.
"""

from .corpus import DemoTestSet, demo_test_set
from .systems import DemoSystem, demo_systems

__all__ = ["DemoSystem", "DemoTestSet", "demo_systems", "demo_test_set"]
