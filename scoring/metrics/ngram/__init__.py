"""N-gram precision metrics: BLEU (and BLEUS) and NIST."""
