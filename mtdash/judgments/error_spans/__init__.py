"""Error spans in the dashboard: MQM and ESA annotations, and metrics' own
spans, imported into a test set (issue 22, sections 1 and 2).

- :mod:`.options`: what an import takes (format, whose spans, MQM weights)
  and what it tells (:class:`~.options.ErrorSpanImportResult`);
- :mod:`.matching`: each annotation matched to an output and a segment, its
  texts and offsets checked against the stored ones;
- :mod:`.imports`: the import itself (spans, and the ``mqm`` / ``esa``
  judgments of human annotations) and the list of a test set's imports;
- :mod:`.forms` and :mod:`.views`: the browser's import page.
- span-level meta-evaluation of the metrics' spans against the human ones
  (section 5): :mod:`.agreement_jobs` (the worker job and its inputs'
  digest), :mod:`.agreement_options` (settings and labels),
  :mod:`.agreement_section` (the metric-evaluation page's "Error spans"),
  :mod:`.agreement_forms`, :mod:`.agreement_views` and
  :mod:`.agreement_exports` (CSV, LaTeX); the API's is
  :mod:`mtdash.api.views.error_span_agreement`.
- seeing them (section 3) and counting them per system (section 2):
  :mod:`.sentence_view` (a sentence's annotations, registered for the
  evaluation app's sentence and compare pages, which highlight them with
  :mod:`mtdash.evaluation.span_view`), :mod:`.breakdown` (errors by category
  × severity, per 100 words, per document), :mod:`.breakdown_figures`,
  :mod:`.segment_list` (segments with a category) and :mod:`.views_pages`.

Files are read by :mod:`scoring.spans`; judgments go through the same
criteria, sources and comparison job as any imported judgment.
"""
