"""Statistics of mtdash: meta-evaluation of metrics and system comparison.

Arrays in, frozen dataclasses out, seeds explicit (SPEC section 3):

- :mod:`~scoring.stats.judgments`, :mod:`~scoring.stats.human`: human
  judgments from CSV/TSV, per-judge z-scores, per-segment and per-system
  aggregates as WMT computes them;
- :mod:`~scoring.stats.correlation` (with :mod:`~scoring.stats.kendall`):
  Pearson, Spearman, Kendall tau-b/c with seeded, vectorised bootstrap
  intervals;
- :mod:`~scoring.stats.best_metric`, :mod:`~scoring.stats.meta_evaluation`:
  the best metric per criterion and the metrics equivalent to it (ORANGE
  Table 1), from SCORES.json (:mod:`~scoring.stats.scores_file`);
- :mod:`~scoring.stats.significance`: bootstrap intervals of corpus scores,
  paired bootstrap and approximate randomisation p-values of all system
  pairs (two-sided), Holm / Bonferroni adjustment of all pairs, significance
  clusters that never hold two significantly different systems;
- :mod:`~scoring.stats.blocks`: the BLEU paper's 20-block t-test;
- :mod:`~scoring.stats.agreement`: Krippendorff's alpha, pairwise Pearson
  between judges, repeated and degraded items (judges' quality controls);
- :mod:`~scoring.stats.kappa`, :mod:`~scoring.stats.icc` (with
  :mod:`~scoring.stats.rating_tables`): Fleiss' kappa, weighted Cohen's
  kappa (linear, quadratic) and the two-way absolute-agreement ICC(A,1) and
  ICC(A,k) between judges;
- :mod:`~scoring.stats.pairwise_accuracy`, :mod:`~scoring.stats.soft_pairwise`:
  system-level pairwise accuracy and soft pairwise accuracy (SPA);
- :mod:`~scoring.stats.kendall_variants`, :mod:`~scoring.stats.kendall_pairs`,
  :mod:`~scoring.stats.tie_calibration`: segment-level tau_b, tau_c, tau_23
  and acc_eq grouped by item, system or not at all, with exact tie
  calibration, and the pair outcomes a significance test swaps;
- :mod:`~scoring.stats.metric_drill_down`: one metric's system pairs
  (agreeing with the humans or not) and the segments that cost it acc_eq;
- :mod:`~scoring.stats.metric_permutation` (with
  :mod:`~scoring.stats.metric_swaps`, :mod:`~scoring.stats.outcome_swaps`,
  :mod:`~scoring.stats.outcome_sources`) and
  :mod:`~scoring.stats.pooled_meta_evaluation`: permutation tests between
  metrics (PERM-BOTH, swapping scores or per-pair outcomes), WMT's rank
  clusters, and rankings pooled over test sets;
- :mod:`~scoring.stats.span_agreement` (with
  :mod:`~scoring.stats.span_matching`): span-level precision, recall and F1
  of a metric's error spans against the human spans (Perrella et al. 2026:
  em, mp, mpp, micro or macro; WMT25's w25), per system and overall, with
  bootstrap intervals over segments.

SciPy (a t distribution, an incomplete beta inverse, an assignment solver)
is imported inside the few functions that use it: importing this package is
part of every Celery worker's and command's start, and SciPy's modules
would be about a third of it.
"""

from scoring.stats.agreement import (
    AgreementEstimate,
    DegradationTest,
    RepeatConsistency,
    alpha_agreement,
    degradation_test,
    krippendorff_alpha,
    pairwise_pearson,
    pearson_agreement,
    repeat_consistency,
)
from scoring.stats.best_metric import (
    MetricCell,
    describe_test,
    mark_best,
    williams_p_value,
)
from scoring.stats.blocks import BlockTest, block_scores, block_t_test
from scoring.stats.correlation import (
    METHODS,
    CorrelationEstimate,
    bootstrap_correlation,
    correlate,
    weighted_correlations,
)
from scoring.stats.human import (
    HumanScores,
    human_scores,
    standardise_per_judge,
    zscores,
)
from scoring.stats.icc import (
    IntraclassCorrelation,
    icc_agreement,
    intraclass_correlation,
)
from scoring.stats.judgments import Judgments, parse_judgments, read_judgments
from scoring.stats.kappa import (
    disagreement_weights,
    fleiss_agreement,
    fleiss_kappa,
    weighted_kappa,
    weighted_kappa_agreement,
)
from scoring.stats.kendall_pairs import (
    PairOutcomes,
    outcome_statistic,
    pair_outcomes,
    pair_scores,
    statistic_from_codes,
)
from scoring.stats.kendall_variants import KendallVariant, PairCounts, kendall_variant
from scoring.stats.meta_evaluation import (
    CorrelationTable,
    CriterionColumn,
    correlation_table,
    describe_interval,
)
from scoring.stats.metric_drill_down import (
    MetricDrillDown,
    SegmentOutcome,
    SegmentOutcomes,
    SystemPairOutcome,
    SystemPairOutcomes,
    drill_down_metric,
    segment_outcomes,
    system_pair_outcomes,
)
from scoring.stats.metric_permutation import (
    MetricRanking,
    cluster_ranks,
    permutation_ranking,
    swap_masks,
)
from scoring.stats.metric_swaps import ScoreSwap
from scoring.stats.outcome_sources import agreement_swap, kendall_swap, spa_swap
from scoring.stats.outcome_swaps import OutcomeSwap
from scoring.stats.pairwise_accuracy import (
    PairwiseAccuracy,
    PooledPairwiseAccuracy,
    pairwise_accuracy,
    pooled_pairwise_accuracy,
    system_pairs,
)
from scoring.stats.pooled_meta_evaluation import (
    PooledRanking,
    pool_rankings,
    pooled_accuracy_ranking,
    pooled_permutation,
    pooled_scores,
    wmt23_weights,
)
from scoring.stats.resampling import (
    bootstrap_counts,
    bootstrap_indices,
    percentile_interval,
    random_signs,
)
from scoring.stats.scores_file import MetricScores, read_metric_scores
from scoring.stats.significance import (
    CORRECTION_LABELS,
    CORRECTIONS,
    DEFAULT_CORRECTION,
    SystemComparison,
    adjust_p_values,
    approximate_randomization_p_values,
    bootstrap_corpus_scores,
    compare_systems,
    holm_bonferroni,
    paired_bootstrap_p_values,
    paired_mean_randomization_p_values,
    significance_clusters,
    smallest_adjusted_p,
)
from scoring.stats.soft_pairwise import (
    HumanPermutationTest,
    SoftPairwiseAccuracy,
    human_permutation_test,
    permutation_p_values,
    soft_pairwise_accuracy,
)
from scoring.stats.span_agreement import AVERAGES as SPAN_AVERAGES
from scoring.stats.span_agreement import (
    SpanAgreement,
    SpanEvaluation,
    SpanFigures,
    evaluate_spans,
    precision_recall_f1,
)
from scoring.stats.span_matching import VARIANTS as SPAN_VARIANTS
from scoring.stats.tie_calibration import (
    TieCalibration,
    calibrate_outcomes,
    calibrate_ties,
)
from scoring.stats.wmt_protocol import (
    TASKS,
    ProtocolSettings,
    pool_protocols,
    run_protocol,
)
from scoring.stats.wmt_results import ProtocolResult, TaskResult, overall_cells

__all__ = [
    "SPAN_AVERAGES",
    "SPAN_VARIANTS",
    "SpanAgreement",
    "SpanEvaluation",
    "SpanFigures",
    "evaluate_spans",
    "precision_recall_f1",
    "MetricDrillDown",
    "SegmentOutcome",
    "SegmentOutcomes",
    "SystemPairOutcome",
    "SystemPairOutcomes",
    "drill_down_metric",
    "segment_outcomes",
    "system_pair_outcomes",
    "MetricRanking",
    "OutcomeSwap",
    "PooledRanking",
    "ScoreSwap",
    "agreement_swap",
    "cluster_ranks",
    "kendall_swap",
    "permutation_ranking",
    "pool_rankings",
    "pooled_accuracy_ranking",
    "pooled_permutation",
    "pooled_scores",
    "spa_swap",
    "swap_masks",
    "wmt23_weights",
    "KendallVariant",
    "PairCounts",
    "PairOutcomes",
    "TieCalibration",
    "calibrate_outcomes",
    "calibrate_ties",
    "kendall_variant",
    "outcome_statistic",
    "pair_outcomes",
    "pair_scores",
    "statistic_from_codes",
    "AgreementEstimate",
    "DegradationTest",
    "RepeatConsistency",
    "alpha_agreement",
    "degradation_test",
    "krippendorff_alpha",
    "pairwise_pearson",
    "pearson_agreement",
    "repeat_consistency",
    "IntraclassCorrelation",
    "disagreement_weights",
    "fleiss_agreement",
    "fleiss_kappa",
    "icc_agreement",
    "intraclass_correlation",
    "weighted_kappa",
    "weighted_kappa_agreement",
    "METHODS",
    "BlockTest",
    "CorrelationEstimate",
    "CorrelationTable",
    "CriterionColumn",
    "HumanScores",
    "Judgments",
    "MetricCell",
    "MetricScores",
    "CORRECTIONS",
    "CORRECTION_LABELS",
    "DEFAULT_CORRECTION",
    "SystemComparison",
    "adjust_p_values",
    "approximate_randomization_p_values",
    "block_scores",
    "block_t_test",
    "bootstrap_corpus_scores",
    "bootstrap_correlation",
    "bootstrap_counts",
    "bootstrap_indices",
    "compare_systems",
    "correlate",
    "correlation_table",
    "describe_interval",
    "describe_test",
    "human_scores",
    "mark_best",
    "holm_bonferroni",
    "paired_bootstrap_p_values",
    "paired_mean_randomization_p_values",
    "parse_judgments",
    "percentile_interval",
    "random_signs",
    "read_judgments",
    "read_metric_scores",
    "significance_clusters",
    "smallest_adjusted_p",
    "standardise_per_judge",
    "weighted_correlations",
    "williams_p_value",
    "zscores",
    "PairwiseAccuracy",
    "PooledPairwiseAccuracy",
    "pairwise_accuracy",
    "pooled_pairwise_accuracy",
    "system_pairs",
    "HumanPermutationTest",
    "SoftPairwiseAccuracy",
    "human_permutation_test",
    "permutation_p_values",
    "soft_pairwise_accuracy",
    "TASKS",
    "ProtocolResult",
    "ProtocolSettings",
    "TaskResult",
    "overall_cells",
    "pool_protocols",
    "run_protocol",
]
