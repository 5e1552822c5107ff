from django.apps import AppConfig


class BenchConfig(AppConfig):
    """The benchmarks' commands (bench_pages, bench_orange_job)."""

    name = "mtdash.bench"
    label = "bench"
