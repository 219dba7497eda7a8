"""Layer 8, the requests both front ends answer: the JSON protocol of ``conquian engine`` and of
the board's HTTP API (:mod:`~analyzer.service.requests`: one validation of every request, a hint's
options included), the answers' data that ``--json`` prints (:mod:`~analyzer.service.results`)
and the board's commands (:mod:`~analyzer.service.board`).  The command line (``cli``) and the
board (``web``) each import it; it imports neither, nor typer, rich or a web framework."""
