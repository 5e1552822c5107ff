"""Word error rates: WER, PER and SER (TER has its own package)."""
