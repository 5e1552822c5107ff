"""The WMT metrics task's meta-evaluation of a test set's metrics (and of
several test sets pooled): the job that runs ``scoring.stats.run_protocol``,
the tables it stores arranged for the pages, exports and forms."""
