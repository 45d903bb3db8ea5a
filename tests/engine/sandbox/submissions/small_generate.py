"""Honest generate(): the 1x1 matmul IR of docs/metrics.md#dally-worked-examples (dally cost 5)."""


def generate():
    lines = ["1,2", "mul 3,1,2", "3"]
    return "\n".join(lines)
