"""The import layers: game/, lexicon/ and vision/ -> store -> actions -> web (api, pages, cli).

Every module of ``companion`` is read (its imports, not run) and placed in a layer; an
import of a higher layer fails, and so does a page importing the API or another page.
game/ imports nothing of ``companion`` outside game/.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "companion"

LAYERS = {"game": 0, "lexicon": 0, "vision": 0, "store": 1, "actions": 2, "web": 3}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    """The layer of a module of ``companion`` (``companion.game.deck`` -> ``game``)."""
    parts = module.split(".")
    if len(parts) < 2:
        return "web"  # the package root is the app factory
    head = parts[1]
    if head in ("game", "lexicon", "vision", "actions"):
        return head
    if head == "store":
        return "store"
    return "web"  # web, api, pages, serve, commands


def imports(path: Path) -> list[str]:
    """The ``companion`` modules ``path`` imports (absolute imports; the project uses no
    relative ones)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            base = node.module or ""
            # ``from companion import store`` imports companion.store; ``from companion.game.deck
            # import Card`` imports companion.game.deck (``known`` tells which).
            found += [f"{base}.{a.name}" for a in node.names]
    return [m for m in found if m == "companion" or m.startswith("companion.")]


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def known(module: str) -> str:
    """``module`` if it is a module or package of companion, else its parent (a name
    imported from a module)."""
    path = PACKAGE.parent / Path(*module.split("."))
    if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
        return module
    return module.rsplit(".", 1)[0]


@pytest.mark.parametrize("path", modules(), ids=lambda p: module_name(p))
def test_imports_run_down_the_layers(path: Path) -> None:
    me = module_name(path)
    mine = LAYERS[layer(me)]
    for target in {known(m) for m in imports(path)}:
        theirs = LAYERS[layer(target)]
        assert theirs <= mine, f"{me} ({layer(me)}) imports {target} ({layer(target)})"
        if layer(me) == "game":
            assert target.startswith("companion.game"), f"{me} imports {target}: game/ is pure"
        if layer(me) == "vision":
            assert target.startswith(("companion.game", "companion.vision")), (
                f"{me} imports {target}: vision/ stands on game/ alone"
            )


def test_no_page_imports_the_api_or_another_page() -> None:
    for path in (PACKAGE / "pages").glob("*.py"):
        me = module_name(path)
        for target in {known(m) for m in imports(path)}:
            assert not target.startswith("companion.api"), f"{me} imports {target}"
            if target.startswith("companion.pages.") and target != me:
                pytest.fail(f"{me} imports another page module, {target}")


def test_companion_holds_packages_only() -> None:
    """Each floor is a package; no module lies loose beside them but the package's own."""
    assert [p.name for p in PACKAGE.glob("*.py")] == ["__init__.py"]


def test_the_api_imports_no_page() -> None:
    for path in (PACKAGE / "api").glob("*.py"):
        for target in imports(path):
            assert not target.startswith("companion.pages"), f"{path.name} imports {target}"


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("companion.game.deck", "game"),
        ("companion.lexicon.store", "lexicon"),
        ("companion.vision.cards", "vision"),
        ("companion.store", "store"),
        ("companion.store.models", "store"),
        ("companion.store.db", "store"),
        ("companion.serve.start", "web"),
        ("companion.actions.games", "actions"),
        ("companion.pages.rounds", "web"),
        ("companion.api.games", "web"),
    ],
)
def test_modules_are_placed_in_their_layer(module: str, expected: str) -> None:
    assert layer(module) == expected


def test_an_upward_import_is_caught(tmp_path: Path) -> None:
    """The check itself: a game module importing the store would be reported."""
    bad = tmp_path / "bad.py"
    bad.write_text("from companion import store\nfrom companion.game import deck\n")
    assert "companion.store" in imports(bad)
    assert LAYERS[layer(known("companion.store"))] > LAYERS["game"]
