"""Metrics, one package per family; each metric is registered by name in :mod:`scoring.registry`."""
