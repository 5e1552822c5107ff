"""RED: edit-distance features graded by a decision tree trained on human DA."""
