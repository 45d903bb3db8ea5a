"""Remote arrays: the parent holds a solve()'s data and meters every numpy operation the child requests.

protocol: how values (handles, slices, tuples, non-finite floats) travel as JSON lines.
session:  the parent side — executes allow-listed requests, records buffer events
          (docs/metrics.md#trackedarray-convention).
client:   the child side — the opaque handle class and the ``numpy`` stand-in module submitted code imports.
"""
