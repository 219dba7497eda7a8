"""Run the CLI with ``python -m cli``."""

from cli.main import main

main()
