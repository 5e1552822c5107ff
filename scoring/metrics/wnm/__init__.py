"""WNM: Babych's weighted n-gram model (salience-weighted n-grams)."""
