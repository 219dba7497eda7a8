"""The web analysis board (``conquian serve``): an ASGI app over the engine's request handler.

Needs the ``web`` extra (``pip install -e ".[web]"``): Starlette and uvicorn.
"""
