"""The WSGI app for a server of worker processes: ``gunicorn -c gunicorn.conf.py``.

Each worker builds its own app (its own database pool). Nothing here migrates or builds
a lexicon: the master did that once before the workers started (``serve.prepare``).
"""

from __future__ import annotations

from companion import create_app

app = create_app()
