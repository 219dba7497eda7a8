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
    # No vertical rules and no outer padding; as many presets side by side as the terminal
    # holds without breaking a value such as double_after_draw, the rest in further tables.
    keys = [k for k in data[0] if k != "name"]
    label = max(map(len, keys))
    widths = [max(len(d["name"]), *(len(_text(d[k])) for k in keys)) for d in data]
    groups: list[list[int]] = [[]]
    used = label
    for k, width in enumerate(widths):
        if groups[-1] and used + 1 + width > out.width:
            groups.append([])
            used = label
        groups[-1].append(k)
        used += 1 + width
    for n, group in enumerate(groups):
        title = "Conquian variants" if n == 0 else None
        table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
        table.add_column("option", no_wrap=True)
        for k in group:
            table.add_column(data[k]["name"], no_wrap=True)
        for key in keys:
            table.add_row(key, *(_text(data[k][key]) for k in group))
        out.print(table)


def _text(value: object) -> str:
    """An option value as a person reads it: yes/no, not True/False."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(map(str, value))
    return str(value)
