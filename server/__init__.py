"""The game server (`mjc serve`): compiled variants played over HTTP and
WebSocket, with persistence, reconnection, 托管 and checkable deals.

Imports `runtime` and `generated` only: no YAML and no Jinja2 at run time.
"""
