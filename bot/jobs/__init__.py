"""The job queue: commands that take a while run one per worker process, queued per member and cancellable.

``JobBoard`` (board.py) keeps the line, the per-member limits, the positions and the jobs that identical requests
attach to; fair_queue.py decides which queued job a free worker takes (turns between members, a cap while others
wait, limit failures pushing a member back); the executors (bot/executors/) run each job in a worker process or on
a Dask cluster.
"""
