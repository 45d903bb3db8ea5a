"""A member's generate() that forgets the last row of C: 12 outputs where matmul_4x4 needs 16."""


def generate():
    inputs = ",".join(str(a) for a in range(1, 33))
    body = [f"mul {33 + i},{1 + i},{17 + i}" for i in range(12)]
    outputs = ",".join(str(33 + i) for i in range(12))
    return "\n".join([inputs, *body, outputs])
