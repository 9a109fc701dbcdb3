"""The build: which code, templates, catalogs and static files this process serves.

Every key a view is kept or tagged under carries it (the ETag of a game's views, the
rendered views kept in memory, the static files' addresses), so nothing a previous
build rendered outlives a deploy: after a template changes and the server restarts,
the next poll gets the new page, not the old one under the same version.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import metadata
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=4)
def build_id(templates: Path, package: Path = PACKAGE) -> str:
    """A short hash of the app's version and of every template, compiled catalog, static
    file and Python module it serves (their paths and contents). Computed once per
    process: a deploy starts new processes."""
    digest = hashlib.sha256(_version().encode())
    for folder, pattern in (
        (templates, "**/*.html"),
        (package / "translations", "**/*.mo"),
        (package / "static", "**/*"),
        (package, "**/*.py"),
    ):
        for path in sorted(p for p in folder.glob(pattern) if p.is_file()):
            digest.update(str(path.relative_to(folder)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:10]


def _version() -> str:
    try:
        return metadata.version("quiddler-companion")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "0"
