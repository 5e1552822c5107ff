"""API views, one module per resource; thin: fetch within the user's teams,
validate with the web forms, call a service, answer JSON."""
