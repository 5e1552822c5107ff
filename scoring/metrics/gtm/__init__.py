"""GTM: the General Text Matcher's maximum matching (GTM 1.4)."""
