"""ORANGE in the product: n-best lists, chunked ORANGE jobs and their results."""
