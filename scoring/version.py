"""The library's version, written into every metric signature."""

__version__ = "0.1.0"
