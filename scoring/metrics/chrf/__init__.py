"""chrF and chrF++: character (and word) n-gram F-scores, as sacreBLEU."""
