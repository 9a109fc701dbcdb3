"""Serve the app with waitress, a production WSGI server: ``python -m companion.serve``.

``HOST`` (default 127.0.0.1) and ``PORT`` (default 5000) come from the environment.
"""

from __future__ import annotations

import os
from pathlib import Path

from waitress import serve

from companion import create_app
from companion.instance import ensure_instance


def main() -> None:
    """Create the instance folder and secret key on first run, then serve."""
    ensure_instance(Path(create_app().instance_path))
    app = create_app()  # again, now reading the instance's config.py
    built = app.extensions["lexicons"].build("standard")  # the first challenge needs no wait
    print(f"Standard lexicon: {built.words} words, ready in {built.seconds:.2f} s", flush=True)
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "5000"))
    print(f"Quiddler Companion on http://{host}:{port}/", flush=True)
    serve(app, host=host, port=port)


if __name__ == "__main__":
    main()
