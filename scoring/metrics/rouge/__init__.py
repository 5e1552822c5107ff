"""ROUGE-N/L/W/S/SU, with ROUGE-1.5.5's preprocessing, stemmer and averaging."""
