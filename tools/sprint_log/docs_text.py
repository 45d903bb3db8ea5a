"""Text as Google Docs keeps it: normalise before any index is computed (pure).

The Docs API reference (``InsertTextRequest.text``; "Structural edit rules and behavior") says that some control
characters (U+0000–U+0008, U+000C–U+001F) and the Basic Multilingual Plane private-use area (U+E000–U+F8FF) are
stripped out of inserted text. Indices are UTF-16 code units. If we count a character that the service then drops,
every later index in the same ``batchUpdate`` points past the text and the whole batch is rejected (400).

:func:`docs_text` removes a superset of what Google strips, so nothing we send is changed by the service:

- ANSI escape sequences pasted from a terminal (``ESC [ 31 m``) as whole sequences — Google would only drop the
  ``ESC`` and leave ``[31m`` in the log;
- ``\\r\\n`` and a lone ``\\r`` become ``\\n`` (Google would drop the ``\\r``, gluing two lines together);
- every other C0 control except tab and newline, DEL and the C1 controls (U+0080–U+009F);
- all private-use characters (the BMP area and planes 15–16);
- unpaired surrogates (a Python ``str`` may hold them, e.g. from undecodable command-line bytes; they are not
  valid UTF-16 and cannot be sent).
"""

from __future__ import annotations

import re

from tools.user_text import ANSI_ESCAPE as _ANSI

_DROPPED = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # C0 except \t \n (\r is handled first), DEL, C1
    "\ue000-\uf8ff"  # BMP private use
    "\U000f0000-\U000ffffd\U00100000-\U0010fffd"  # supplementary private use planes
    "\ud800-\udfff]"  # surrogates: in a Python str they are always unpaired
)


def docs_text(text: str) -> str:
    """``text`` with everything removed that Google Docs would strip or reject; see the module docstring."""
    text = _ANSI.sub("", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _DROPPED.sub("", text)


def stored_text(text: str) -> str:
    """``text`` safe to store: a surrogate pair written as two code points is joined into its character, an
    unpaired surrogate (not encodable as UTF-8) becomes U+FFFD, the rest is kept as typed."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
