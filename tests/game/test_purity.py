"""The rules engine stays pure: no web framework, database, network, files or processes."""

from __future__ import annotations

import ast
from pathlib import Path

import companion.game

FORBIDDEN_MODULES = frozenset({
    "flask", "werkzeug", "sqlalchemy", "flask_sqlalchemy", "requests", "urllib", "http",
    "socket", "os", "pathlib", "io", "shutil", "subprocess", "sqlite3",
})  # fmt: skip
FORBIDDEN_CALLS = frozenset({"open", "__import__", "import_module"})

PACKAGE = Path(companion.game.__file__).parent
ROOT = PACKAGE.parent.parent


def offences(source: str, filename: str) -> list[str]:
    """Each forbidden import or call in ``source``, as ``file:line what``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source, filename)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        for module in modules:
            if module.split(".")[0] in FORBIDDEN_MODULES:
                found.append((node.lineno, f"{filename}:{node.lineno} imports {module}"))
        if isinstance(node, ast.Call):
            # open(...), io.open(...), path.open(...), __import__(...), importlib.import_module(...)
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name in FORBIDDEN_CALLS:
                found.append((node.lineno, f"{filename}:{node.lineno} calls {name}()"))
    return [text for _, text in sorted(found)]


def engine_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_engine_files_are_found():
    """The walk sees every module of the engine (a wrong path would make the test vacuous)."""
    names = {p.name for p in engine_files()}
    assert {"deck.py", "spelling.py", "rules.py", "play.py", "challenges.py"} <= names
    assert {"scoring.py", "parse.py", "errors.py", "__init__.py"} <= names


def test_the_engine_imports_nothing_impure_and_opens_no_file():
    """No module under companion/game imports I/O, web, database or process libraries."""
    found = []
    for path in engine_files():
        relative = path.relative_to(ROOT).as_posix()
        found += offences(path.read_text(encoding="utf-8"), relative)
    assert not found, "the rules engine must stay pure:\n" + "\n".join(found)


def test_the_checker_catches_each_kind_of_offence():
    """The checker itself: each forbidden form is reported with its line."""
    source = "\n".join([
        "import os",
        "import os.path as p",
        "from urllib.parse import quote",
        "import http.client",
        "from flask import Flask",
        "import json, sqlite3",
        "with open('x') as f: pass",
        "p.open()",
        "__import__('socket')",
        "importlib.import_module('io')",
        "from . import deck",
        "import osmosis",
        "from companion.game import io_free",
    ])  # fmt: skip
    assert offences(source, "x.py") == [
        "x.py:1 imports os",
        "x.py:2 imports os.path",
        "x.py:3 imports urllib.parse",
        "x.py:4 imports http.client",
        "x.py:5 imports flask",
        "x.py:6 imports sqlite3",
        "x.py:7 calls open()",
        "x.py:8 calls open()",
        "x.py:9 calls __import__()",
        "x.py:10 calls import_module()",
    ]
