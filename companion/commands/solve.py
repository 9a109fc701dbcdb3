"""Best play from the command line, to compare with other solvers on any word list.

    python -m companion.commands.solve [--words FILE] [--discard] [--min-word letters] qu a th i ...

Without ``--words`` the standard lexicon is used (built into the instance
folder's cache on first use; ``LEXICON_DIR`` and ``LEXICON_CACHE_DIR`` as for the app).
No Flask is loaded, nor (while the index file is current) the code that builds the
lists: the instance folder, its settings, the index and the messages are read as plain
files and data, so a run costs little more than starting Python.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import sys
from collections.abc import Mapping
from pathlib import Path

from companion.game.deck import value
from companion.game.errors import RuleError
from companion.game.solver import best_play, build_index, parse_hand
from companion.lexicon import packed
from companion.serve import instance
from companion.web import refusals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m companion.commands.solve",
        description="Print the best play of a Quiddler hand.",
    )
    parser.add_argument("cards", nargs="+", help="card names: a..z, qu, in, er, cl, th")
    parser.add_argument("--words", type=Path, help="a word list, one word per line")
    parser.add_argument(
        "--discard",
        action="store_true",
        help="the hand holds the drawn card too: also pick the discard",
    )
    parser.add_argument("--min-word", choices=("cards", "letters"), default="cards")
    args = parser.parse_args(argv)
    try:
        hand = parse_hand(args.cards)
        index = words_index(args.words) if args.words else standard_index()
        play = best_play(hand, index, args.min_word, args.discard)
    except RuleError as exc:
        print(f"error: {refusals.text(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot read the word list: {exc.strerror}", file=sys.stderr)
        return 2
    for word in play.words:
        print(f"{'·'.join(str(c) for c in word):24} {value(word):>4}")
    if play.unused:
        print(f"unused: {' '.join(str(c) for c in play.unused)} (-{value(play.unused)})")
    if play.discard:
        print(f"discard: {play.discard}")
    print(f"points: {play.points}" + ("  (goes out)" if play.goes_out else ""))
    return 0


def words_index(path: Path) -> Mapping[str, str]:
    """The best-play index of a word list given with ``--words``: built once, then kept
    in the cache folder under the SHA-256 of the list's bytes, so a later run with the
    same list reads it (a changed list, or changed code, builds it again)."""
    import hashlib  # only with --words

    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    folder = instance.folder()
    _, cache_folder = instance.lexicon_folders(instance.settings(folder), folder)
    file = packed.index_path(cache_folder, f"words-{digest[:24]}")
    key = f"words {digest}"
    found = packed.read_current(file, key=key)
    if found is not None:
        return found
    words = data.decode("utf-8", errors="replace").split()
    index = build_index(w.lower() for w in words)
    with contextlib.suppress(OSError, ValueError):  # a read-only folder: no cache, same play
        packed.write(file, key, index, vouch=True)
    return index


def standard_index() -> Mapping[str, str]:
    """The standard lexicon's best-play index, as the app's store keeps it.

    Straight from its file while the file's witness holds (no package or lexicon code
    changed since the store checked it: ``packed.read_current``); else from the store,
    which checks it with its key, builds it if need be, and vouches for it again.
    """
    folder = instance.folder()
    config = instance.settings(folder)
    _, cache_folder = instance.lexicon_folders(config, folder)
    found = packed.read_current(packed.index_path(cache_folder, "standard"))
    if found is not None:
        return found
    return instance.lexicon_store(config, folder).solver_index("standard")


if __name__ == "__main__":
    gc.disable()  # one hand and out: no collection pays for itself (not in main(): tests call it)
    sys.exit(main())
