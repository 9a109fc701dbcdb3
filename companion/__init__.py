"""The Quiddler Companion: a Flask app that scores Quiddler rounds at the table.

The app factory lives in ``companion.serve.factory``; its names are re-exported here on
first use, so ``from companion import create_app`` and ``flask --app companion`` work
while ``import companion.game`` or ``python -m companion.commands.solve`` never load Flask.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (not typing's: importing a part of the package loads no more)
if TYPE_CHECKING:
    from typing import Any

    from companion.serve.factory import (
        ENVIRONMENT_KEYS,
        MIGRATIONS,
        TEMPLATES,
        create_app,
        upgrade_database,
    )

__all__ = ["ENVIRONMENT_KEYS", "MIGRATIONS", "TEMPLATES", "create_app", "upgrade_database"]


def __getattr__(name: str) -> Any:
    """The factory's names, imported (with Flask) only when first asked for."""
    if name in __all__:
        from companion.serve import factory

        return getattr(factory, name)
    raise AttributeError(f"module 'companion' has no attribute {name!r}")
