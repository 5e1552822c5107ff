"""Error spans shown with a sentence: the sentence page and the two-system
comparison highlight the spans annotators (and metrics) marked.

The spans are the judgments app's (a higher layer): it registers a source
of a sentence's annotations (:func:`mtdash.common.registry.
register_sentence_annotations`) and this package calls it, so these pages
never import that app.

- :mod:`.annotations`: what a source gives (:class:`SentenceAnnotation`,
  :class:`ShownSpan`) and the call through the registry;
- :mod:`.filters`: the category, severity and annotator filters of a page's
  query string;
- :mod:`.highlight`: a text with its spans as escaped HTML;
- :mod:`.rows`: one row per annotator, as the pages show them.
"""
