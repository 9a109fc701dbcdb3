"""CSV cells that a spreadsheet shows and never runs.

A name typed at the table ends up in the export; Excel, LibreOffice and Google
Sheets take a cell that begins with ``=``, ``+``, ``-`` or ``@`` (or a tab or a
carriage return before one) as a formula, and some formulas run programs.
"""

from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes as the start of a formula (or of a cell it may run)."""
NUMBER = re.compile(r"-?\d+(\.\d+)?")


def spreadsheet_safe(cell: object) -> object:
    """A cell that no spreadsheet runs: text that begins like a formula gets a leading
    apostrophe (a player called ``=cmd|' /C calc'!A0`` stays a name); numbers, negative
    ones too, stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) and not NUMBER.fullmatch(cell):
        return "'" + cell
    return cell
