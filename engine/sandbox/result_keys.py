"""Names of the parameters a judged ``solve()`` result carries — a leaf module, so a caller that only reads a stored
result's parameters does not load the judge (and the sandbox layers it imports)."""

from __future__ import annotations

HIDDEN_INSTANCES = "hidden_instances"
"""The result parameter listing the judged instances' seeds (hex): revealed only after they were used."""
