"""What the web apps share: the background-job machinery, metric forms,
upload checks and download responses.

One way to add a background job
===============================

A new kind of job (significance, an import, ...) is three small pieces:

1. A model that subclasses :class:`mtdash.common.jobs.Job` and names its
   task: ``task_name = "mtdash.<app>.tasks.<verb>"``. The row is the source
   of truth (status, progress, error, timestamps, attempts); a Celery message
   only wakes a worker.
2. One runner function in the app's services that takes the row's id,
   claims it (``Model.objects.filter(pk=pk).claim()``; 0 rows means another
   worker has it), does the work inside
   :func:`mtdash.common.running.run_claimed` (a transient fault hands the row
   back and is retried, anything else is recorded as a readable error) and
   marks it done with ``.succeed()``. Running it twice must be harmless.
3. A thin task in the app's ``tasks.py``, with the shared options of
   :func:`mtdash.common.task_options.job_task`::

       @job_task(MyJob.task_name)
       def do_my_job(job_id: int) -> bool:
           return run_my_job(job_id)

The service that creates the row queues it with
:func:`mtdash.common.queueing.send_job_tasks` after the transaction commits.
Tasks import runners; services send tasks by name and never import the
tasks module, so there is no import cycle between them.
"""
