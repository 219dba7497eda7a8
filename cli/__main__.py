"""Run the CLI with ``python -m cli``."""

import sys

from cli.main import main

sys.exit(main())
