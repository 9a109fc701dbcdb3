"""The rules of Quiddler as pure functions and frozen dataclasses.

No Flask, no database, no files, no module state: everything comes in as
arguments, so pages, the API and exports all score the same way.
"""
