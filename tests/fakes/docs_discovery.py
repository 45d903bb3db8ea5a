"""Check Docs API request bodies against the discovery document shipped in google-api-python-client (offline).

``googleapiclient/discovery_cache/documents/docs.v1.json`` is the service's own schema: every request we send must
use only properties it defines, with the JSON type it declares (and a value from its enum where it has one), and
each ``Request`` must set exactly one kind (it is a union). The real service would answer 400 for an unknown
field; the fake model would simply ignore it — this closes that gap.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


@functools.cache
def docs_discovery() -> dict[str, Any]:
    """The shipped docs.v1 discovery document."""
    import googleapiclient

    path = Path(googleapiclient.__file__).parent / "discovery_cache" / "documents" / "docs.v1.json"
    return dict(json.loads(path.read_text(encoding="utf-8")))


def problems(value: Any, schema: dict[str, Any], where: str) -> list[str]:
    """Every way ``value`` breaks ``schema`` (a discovery schema or property), as ``path: reason`` lines."""
    schemas = docs_discovery()["schemas"]
    if "$ref" in schema:
        return problems(value, schemas[schema["$ref"]], where)
    kind = schema.get("type")
    if kind is not None:
        if kind in ("integer", "number") and isinstance(value, bool):
            return [f"{where}: a boolean where {kind} is declared"]
        if not isinstance(value, _TYPES[kind]):
            return [f"{where}: {type(value).__name__} where {kind} is declared"]
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} is not one of {schema['enum']}"]
    found: list[str] = []
    if isinstance(value, dict) and "properties" in schema:
        for key, item in value.items():
            if key not in schema["properties"]:
                found.append(f"{where}.{key}: no such field in {schema.get('id', 'object')}")
            else:
                found += problems(item, schema["properties"][key], f"{where}.{key}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            found += problems(item, schema["items"], f"{where}[{i}]")
    return found


def batch_update_problems(body: dict[str, Any]) -> list[str]:
    """What is wrong with a ``documents.batchUpdate`` body ([] when the discovery document accepts all of it)."""
    schemas = docs_discovery()["schemas"]
    found = problems(body, schemas["BatchUpdateDocumentRequest"], "body")
    for i, request in enumerate(body.get("requests", [])):
        if len(request) != 1:
            found.append(f"body.requests[{i}]: sets {len(request)} kinds; a Request is a union of exactly one")
    return found
