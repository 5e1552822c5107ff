from django.apps import AppConfig


def refresh_correlations(test_set, visible_output_ids: list[int]) -> bool:
    """The comparison job's refresh of the correlation tables, imported when
    one runs: the tables need SciPy, which a worker that never refreshes them
    (and every web process) would otherwise import as it starts."""
    from mtdash.judgments.correlations import tables

    return tables.refresh(test_set, visible_output_ids)


class JudgmentsConfig(AppConfig):
    """Human judgments of a test set's outputs: imports, judging campaigns,
    their overview, and the metrics' correlations with them."""

    name = "mtdash.judgments"
    label = "judgments"

    def ready(self) -> None:
        # What this app adds to the evaluation app's work (a lower layer,
        # which cannot import this one): see mtdash.common.registry.
        from mtdash.common import registry
        from mtdash.judgments.error_spans.sentence_view import sentence_annotations
        from mtdash.judgments.leaderboard_columns import human_columns
        from mtdash.judgments.meta_evaluation import signals  # noqa: F401
        from mtdash.judgments.models import Judgment, MetaEvaluation

        registry.register_leaderboard_columns(human_columns)
        registry.register_analysis_refresher(refresh_correlations)
        registry.register_sentence_annotations(sentence_annotations)
        registry.register_deletion_count(
            registry.DeletionCount(
                "judgment",
                of_outputs=lambda outputs: Judgment.objects.filter(
                    output__in=outputs
                ).count(),
            )
        )
        # Deleting a test set deletes its meta-evaluations (the receiver in
        # meta_evaluation.signals); its confirmation page counts them.
        registry.register_deletion_count(
            registry.DeletionCount(
                "meta-evaluation",
                of_test_set=lambda test_set: MetaEvaluation.objects.filter(
                    test_sets=test_set
                ).count(),
            )
        )
