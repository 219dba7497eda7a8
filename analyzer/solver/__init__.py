"""Layer 2, the CP-SAT models: a hand's best arrangement into melds, the take / pay choices,
and why a card set cannot be melded (R4-R6, R13, R16)."""
