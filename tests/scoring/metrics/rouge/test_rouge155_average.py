"""ROUGE-1.5.5's printed average and confidence interval, replayed.

The expected figures were printed by ROUGE-1.5.5.pl itself (Perl 5.36) for a
12-unit toy evaluation whose per-unit ROUGE-1 recalls it printed with ``-d``
(listed below); the WMT21 agreement tests replay 300 more printed averages.
"""

from __future__ import annotations

import numpy as np
import pytest

from scoring.metrics.rouge.average155 import (
    Rouge155Average,
    perl_bootstrap_indices,
    rouge155_bootstrap_average,
    rouge155_unit_order,
)

TOY_RECALLS = [
    0.66667,
    1.0,
    0.0,
    0.33333,
    1.0,
    0.4,
    0.4,
    0.57143,
    0.5,
    0.16667,
    0.5,
    0.6,
]


@pytest.mark.parametrize(
    ("samples", "confidence", "printed"),
    [
        # "X ROUGE-1 Average_R: 0.51150 (95%-conf.int. 0.36111 - 0.66984)"
        (1000, 95.0, Rouge155Average(0.5115, 0.36111, 0.66984)),
        # with -r 100 -c 90: "0.50847 (90%-conf.int. 0.38611 - 0.63690)"
        (100, 90.0, Rouge155Average(0.50847, 0.38611, 0.6369)),
    ],
)
def test_it_reproduces_the_printed_average_and_interval_of_rouge_1_5_5(
    samples: int, confidence: float, printed: Rouge155Average
) -> None:
    replay = rouge155_bootstrap_average(TOY_RECALLS, samples, confidence)
    assert replay == printed
    # The plain mean is not what ROUGE prints.
    assert round(sum(TOY_RECALLS) / 12, 5) == 0.51151


def test_units_are_resampled_in_rouge_s_string_order_of_their_ids() -> None:
    assert rouge155_unit_order(12) == [0, 9, 10, 11, 1, 2, 3, 4, 5, 6, 7, 8]
    assert rouge155_unit_order(3) == [0, 1, 2]


def test_the_draws_follow_perls_drand48_seeded_by_the_resample_number() -> None:
    indices = perl_bootstrap_indices(1000, 3)
    assert indices.shape == (3, 1000)
    assert indices.min() >= 0 and indices.max() < 1000
    # srand(0): state 0x330E; first draw (0x330E * 0x5DEECE66D + 0xB) mod 2^48.
    state = (0x330E * 0x5DEECE66D + 0xB) % 2**48
    assert indices[0, 0] == int(1000 * (state / 2**48))
    assert not indices.flags.writeable


def test_constant_scores_average_to_themselves_and_nothing_averages_to_zero() -> None:
    assert rouge155_bootstrap_average(np.full(50, 0.25)) == Rouge155Average(
        0.25, 0.25, 0.25
    )
    assert rouge155_bootstrap_average([]) == Rouge155Average(0.0, 0.0, 0.0)
