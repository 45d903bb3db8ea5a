"""The local job queue: commands that take a while run one per worker process, queued per member and cancellable.

``JobBoard`` (board.py) keeps the line, the per-member limits and the positions; ``ProcessRunner`` (process.py)
runs one job in a fresh worker process (``worker.py``) whose progress lines and log records come back over a pipe.
"""
