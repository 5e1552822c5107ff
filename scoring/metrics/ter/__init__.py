"""TER: translation edit rate with TERCOM 0.7.25's shift search."""
