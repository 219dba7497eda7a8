"""Layer 3, text in and out: JSON shapes and hardened JSON reading, positions, the one-line
notation, game records and meld query files (docs/*-format.md)."""
