"""METEOR (1.5 and 2005): exact, stem, synonym and paraphrase matching."""
