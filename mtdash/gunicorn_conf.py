"""gunicorn's settings for every mtdash web server: ``bin/run``, the Docker
image and docker-compose start ``gunicorn -c python:mtdash.gunicorn_conf
mtdash.wsgi`` and add the address, the number of workers and the logs.

``preload_app``: the master loads the application, and with it
``mtdash.common.web_warmup`` (every view imported, every template compiled),
before it listens and forks, so no worker takes a request cold (issue 24
item 6: a first login page once ran past the 30 s timeout) and the workers
share that memory. The cost: ``kill -HUP`` restarts the workers on the code
the master loaded; restart the master (bin/run's supervisor, Docker) to
deploy new code.
"""

preload_app = True
