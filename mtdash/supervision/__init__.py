"""The process supervisor behind ``bin/run``: it starts a server's processes
(an embedded Redis, the Celery workers, beat, gunicorn) in the order a plan
gives, says when the server is up, restarts a process that stops, and stops
them all on SIGTERM or Ctrl-C.

``supervisor`` holds the mechanism (children, restarts with back-off, the
give-up limit, stopping); ``__main__`` reads bin/run's plan and runs it
(``python -m mtdash.supervision PLAN``). Neither imports Django: this process
only runs the others.
"""
