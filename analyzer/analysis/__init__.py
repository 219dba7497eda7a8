"""Layer 5, answers for a player: static hints, the advisor (ranked moves with reasons),
review of a game record, puzzles and puzzles mined from games."""
