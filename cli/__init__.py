"""The ``conquian`` command-line interface (typer + rich)."""
