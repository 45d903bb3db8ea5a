"""The Telegram edge: a python-telegram-bot Application whose handlers are generated from the command registry.

application.py composes it from Settings; handlers.py turns messages into Invocations (requests.py), checks access
(access.py), runs the command in the job queue or off the event loop, and sends the Reply (render.py, delivery.py).
"""
