"""The request key of an IR program: the same key as before, computed without a child process.

Oracle: the general path (:func:`tools.run_request.normalise_code`, which parses a large source as Python in a
resource-limited child and falls back to trimmed text when it is not Python) gives the key stored rows were made
with; the IR path must give the same key, and must start no process (counted by an audit hook in a fresh Python).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from tools.run_request import NormalisedRequest, normalise_code

ROOT = Path(__file__).resolve().parents[2]
RECORD_16X16 = ROOT / "tests" / "data" / "ir" / "matmul__weighted_lifetime_copyelim_66707.ir"

COUNT_CHILDREN = """
import json, sys
spawned = []
sys.addaudithook(lambda event, args: spawned.append(event) if event in ("subprocess.Popen", "os.posix_spawn") else None)
from tools.run_request import NormalisedRequest
text = open(sys.argv[1]).read() + "\\n\\n"
request = NormalisedRequest(challenge="matmul_16x16", kind="ir", subject="s", code=text)
print(json.dumps({"key": request.key, "again": request.key, "hash": request.code_hash, "spawned": len(spawned)}))
"""


def test_ir_request_key_matches_the_general_path_and_starts_no_child() -> None:
    text = RECORD_16X16.read_text()
    assert len(text.encode()) > 16 * 1024  # large enough that the general path parses it in a child
    done = subprocess.run(
        [sys.executable, "-c", COUNT_CHILDREN, str(RECORD_16X16)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    seen = json.loads(done.stdout)
    assert seen["spawned"] == 0
    general = hashlib.sha256(normalise_code(text + "\n\n").encode()).hexdigest()  # one child parse, here
    assert seen["hash"] == general
    assert seen["key"] == seen["again"]
    stored_shape = NormalisedRequest(challenge="matmul_16x16", kind="ir", subject="s", code=text)
    assert stored_shape.key == seen["key"]  # trailing blank lines do not change the key


def test_python_code_is_still_normalised_by_its_syntax() -> None:
    a = NormalisedRequest(challenge="c", kind="generate", subject="s", code="def generate():\n    return 'x'\n")
    b = NormalisedRequest(challenge="c", kind="generate", subject="s", code="def generate():  # why\n  return 'x'")
    assert a.key == b.key
    c = NormalisedRequest(challenge="c", kind="generate", subject="s", code="def generate():\n    return 'y'\n")
    assert c.key != a.key
