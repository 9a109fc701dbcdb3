"""Tables of the docs made from the code: ``python -m companion.commands.docs`` rewrites them.

docs/rules.md's house-rules table comes from the rules' declaration and
docs/api.md's refusal codes from the message catalog, between marker comments,
so adding a rule or a code shows up in the docs (a test fails until they match).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from companion.game.rules import (
    LEAST_CARDS,
    MAX_POINTS,
    MAX_ROUNDS,
    MOST_CARDS,
    PLANS,
    RULES,
    RuleSpec,
    plan_label,
)
from companion.web.refusals import REASONS, REFUSALS, Plural

DOCS = Path(__file__).resolve().parent.parent.parent / "docs"


def _values(spec: RuleSpec) -> tuple[str, str]:
    """The default and the alternatives of a house rule, as the table writes them."""
    if spec.kind in ("choice", "flag"):  # each value: its label, then its key (`true`)
        shown = {v: f"{spec.label(v)} (`{str(v).lower()}`)" for v in spec.choices or (True, False)}
        return shown.pop(spec.default), "; ".join(shown.values())
    if spec.kind == "points":
        return str(spec.default), f"any whole number from 0 to {MAX_POINTS}"
    if spec.kind == "plan":  # the presets by name, then what else a plan may be
        presets = [
            f"{name.capitalize()}: {len(hands)} rounds, {plan_label(hands)}"
            for name, hands in PLANS.items()
        ]
        default = f"{presets.pop(0)} (`{list(spec.default)}`)"
        return default, "; ".join(presets) + (
            f"; or any list of 1 to {MAX_ROUNDS} hand sizes of {LEAST_CARDS} to {MOST_CARDS}"
            " cards (a short game: `[3, 4, 5, 6, 7]`)"
        )
    return f"`{spec.default}`", "`wordgame`, `common`, or a group's own word list"


def rules_table() -> str:
    """The house rules, one row each, from their declaration."""
    rows = ["| rule | key | default | alternatives | what it does |", "|---|---|---|---|---|"]
    for spec in RULES:
        default, alternatives = _values(spec)
        rows.append(
            f"| {spec.title} | `{spec.name}` | {default} | {alternatives} | {spec.explanation} |"
        )
    return "\n".join(rows)


def codes_table() -> str:
    """Every refusal code with its English message, and every reason code with its words."""
    rows = ["| code | message (English) |", "|---|---|"]
    for code, template in sorted(REFUSALS.items()):
        shown = template.other if isinstance(template, Plural) else template
        rows.append(f"| `{code}` | {shown.replace('|', '/')} |")
    rows += ["", "Reason codes of verdicts and rulings (`code` beside `reason`):", ""]
    rows += ["| code | reason (English) |", "|---|---|"]
    rows += [f"| `{code}` | {words} |" for code, words in REASONS.items()]
    return "\n".join(rows)


TABLES = {"rules.md": ("house-rules", rules_table), "api.md": ("codes", codes_table)}


def marked(text: str, name: str, table: str) -> str:
    """``text`` with the part between ``<!-- name: begin -->`` and ``<!-- name: end -->``
    replaced by ``table``."""
    pattern = re.compile(rf"(<!-- {name}: begin -->\n).*?(<!-- {name}: end -->)", re.S)
    if not pattern.search(text):
        raise ValueError(f"no '{name}' markers")
    return pattern.sub(lambda m: m.group(1) + table + "\n" + m.group(2), text)


def main() -> None:
    """Rewrite the generated tables of the docs."""
    for file, (name, make) in TABLES.items():
        path = DOCS / file
        path.write_text(marked(path.read_text(encoding="utf-8"), name, make()), encoding="utf-8")
        print(f"docs/{file}: {name} table written", file=sys.stderr)


if __name__ == "__main__":
    main()
