"""The command-line entry points: ``flask --app companion lexicon ...`` (``cli``), best play
(``python -m companion.commands.solve``), the catalogs' English (``catalogs``) and the
docs' generated tables (``docs``)."""
