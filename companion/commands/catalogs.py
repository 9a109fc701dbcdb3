"""The English catalog written out: ``python -m companion.commands.catalogs`` (run by ``make
translations``).

English is the language the sentences are written in, so its catalog says each one as
it is: every ``msgstr`` is its ``msgid`` (both forms of a plural). A complete catalog
shows at a glance that nothing English is missing, and gives translators the sentences
as the Companion says them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po, write_po

TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
ENGLISH = TRANSLATIONS / "en" / "LC_MESSAGES" / "messages.po"


def write_english(path: Path = ENGLISH) -> int:
    """Set every sentence of the English catalog to itself; how many were set."""
    with path.open("rb") as f:
        catalog = read_po(f, locale="en")
    changed = 0
    for message in catalog:
        if not message.id:
            continue
        own = message.id if isinstance(message.id, str) else tuple(message.id)
        if message.string != own or message.fuzzy:
            message.string = own
            message.flags.discard("fuzzy")
            changed += 1
    with path.open("wb") as f:
        write_po(f, catalog, width=76, sort_by_file=True, include_previous=False)
    return changed


if __name__ == "__main__":
    print(f"{write_english()} English sentences written", file=sys.stderr)
