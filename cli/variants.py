"""``conquian variants``: the presets and all their options (RULES.md section 4)."""

from __future__ import annotations

from rich import box
from rich.table import Table

from analyzer.core.rules import PRESETS
from analyzer.core.stakes import default_stakes
from cli.console import emit, out
from cli.options import JsonOpt

__all__ = ["variants"]


def variants(as_json: JsonOpt = False) -> None:
    """List the variant presets and their options (RULES.md section 4)."""
    data = [{**rules.as_dict(), "stakes": str(default_stakes(rules))} for rules in PRESETS.values()]
    if as_json:
        emit({"variants": data})
        return
    # No vertical rules and no outer padding: the five columns fit 80 columns without breaking a
    # value such as double_after_draw.
    table = Table(title="Conquian variants", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("option", overflow="fold")
    for rules in PRESETS.values():
        table.add_column(rules.name, overflow="fold")
    for key in data[0]:
        table.add_row(key, *(_text(d[key]) for d in data))
    out.print(table)


def _text(value: object) -> str:
    """An option value as a person reads it: yes/no, not True/False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)
