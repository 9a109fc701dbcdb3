"""``flask --app companion lexicon build``: build the lexicon caches ahead of first use."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import AppGroup

from companion.lexicon import UnknownLexicon

lexicon = AppGroup("lexicon", help="Build and list the word lists.")


@lexicon.command("build")
@click.argument("names", nargs=-1)
@click.option("--force", is_flag=True, help="Rebuild even when the cache is up to date.")
def build(names: tuple[str, ...], force: bool) -> None:
    """Build the caches of NAMES (default: every lexicon on offer)."""
    store = current_app.extensions["lexicons"]
    for name in names or store.names():
        try:
            built = store.build(name, force=force)
        except UnknownLexicon as exc:
            raise click.BadParameter(str(exc), param_hint="NAMES") from None
        click.echo(f"{built.name}: {built.words} words, ready in {built.seconds:.2f} s")


@lexicon.command("list")
def list_() -> None:
    """List the lexicons on offer."""
    store = current_app.extensions["lexicons"]
    for name in store.names():
        click.echo(f"{name}\t{store.title(name)}")
