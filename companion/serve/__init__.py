"""Serving the app: the app factory and the instance folder (``factory``, ``instance``),
``make run``'s start on waitress (``start``, ``python -m companion.serve``), the WSGI app
of the production start's gunicorn workers (``wsgi``). Importing this package loads
nothing: the command line reads the instance folder without Flask."""
