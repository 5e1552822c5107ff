"""``python -m scoring train-red``: train a RED model on BLEND and write it as JSON.

The procedure is :mod:`scoring.metrics.red.training`'s; this prints the
model's held-out figures after writing it.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scoring.lexicon.wordnet import DEFAULT_WORDNET_DIR
from scoring.metrics.red import training
from scoring.metrics.red.features import FEATURE_SETS


def add_train_red_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "train-red",
        help="train a RED model on the BLEND human judgments",
        description=training.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--blend", type=Path, required=True, help="blend-wmt15-16-da folder"
    )
    parser.add_argument("--features", choices=tuple(FEATURE_SETS), default="basic")
    parser.add_argument("--out", type=Path, required=True, help="model file to write")
    parser.add_argument(
        "--wordnet", default=DEFAULT_WORDNET_DIR, help="WordNet 3.0 folder"
    )


def run_train_red(arguments: argparse.Namespace) -> dict:
    """Train and write one model; returns its held-out figures."""
    model = training.train_model(
        training.load_blend(arguments.blend),
        arguments.features,
        wordnet=arguments.wordnet,
        out=str(arguments.out),
        blend_path=str(arguments.blend),
    )
    arguments.out.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
    return model["heldout"]
