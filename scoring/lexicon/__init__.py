"""Lexical resources: the WordNet 3.0 reader and the stemmers."""
