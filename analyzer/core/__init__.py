"""Layer 1, the rules engine: cards, rules and presets, melds, moves, the immutable game state,
dealing and views, and the rule checks of a whole position (R1-R20)."""
