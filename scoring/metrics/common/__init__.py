"""Helpers shared by several metric families: n-gram counting and word edit distances."""
