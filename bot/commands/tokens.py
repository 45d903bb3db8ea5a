"""Turn a token list (argv, or the words after a Telegram ``/command``) into an :class:`Invocation`.

Grammar, shared by both transports: ``--flag``, ``--key value``, ``--key=value``, ``key=value`` and positionals.
Which ``--key`` takes a value comes from the command's declaration, so ``--json`` never swallows the next token.
"""

from __future__ import annotations

import re

from bot.commands.base import Command, Invocation, UsageError

_KEY_VALUE = re.compile(r"^([A-Za-z_][A-Za-z0-9_.\-]*)=(.*)$", re.S)


def parse_tokens(command: Command, tokens: list[str], *, extra_flags: frozenset[str] = frozenset()) -> Invocation:
    """Split ``tokens`` into args/options/flags for ``command``; unknown ``--options`` raise :class:`UsageError`."""
    inv = Invocation(command=command.name)
    known_flags = set(command.flag_options) | set(extra_flags)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.startswith("--") and len(tok) > 2:
            body = tok[2:]
            key, eq, value = body.partition("=")
            key_norm = key.replace("-", "_")
            if key_norm in command.value_options:
                if not eq:
                    if i + 1 >= len(tokens):
                        raise UsageError(f"--{key} needs a value", hint=f"usage: {command.name} {command.usage}")
                    i += 1
                    value = tokens[i]
                inv.options[key_norm] = value
            elif key_norm in known_flags and not eq:
                inv.flags.add(key_norm)
            elif command.free_text:
                inv.args.append(tok)
            else:
                known = sorted(f"--{k}" for k in [*command.value_options, *known_flags])
                raise UsageError(
                    f"unknown option --{key} for {command.name}",
                    hint=("options: " + ", ".join(known)) if known else f"usage: {command.name} {command.usage}",
                )
        elif tok == "-" or command.free_text or not (m := _KEY_VALUE.match(tok)):
            inv.args.append(tok)
        else:
            inv.options[m.group(1)] = m.group(2)
        i += 1
    return inv


_WORDS = re.compile(r"(\s+)")


def parse_free_text(command: Command, text: str) -> Invocation:
    """A chat message for a ``free_text`` command: its declared ``--option VALUE`` / ``--flag`` words are taken
    out, and the rest is one argument, exactly as typed (quotes, ``key=value`` words and new lines kept)."""
    inv = Invocation(command=command.name)
    pieces = _WORDS.split(text)  # words at even positions, the whitespace between them at odd ones
    kept: list[str] = []
    i = 0
    while i < len(pieces):
        word = pieces[i]
        key, eq, value = word[2:].partition("=")
        key = key.replace("-", "_")
        if i % 2 == 0 and word.startswith("--") and key in command.value_options:
            if not eq:
                if i + 2 >= len(pieces) or not pieces[i + 2]:
                    raise UsageError(f"--{key} needs a value", hint=f"usage: {command.name} {command.usage}")
                value = pieces[i + 2]
                i += 2
            inv.options[key] = value
            i += 2  # the word (or its value) and the whitespace after it
            continue
        if i % 2 == 0 and word.startswith("--") and key in command.flag_options and not eq:
            inv.flags.add(key)
            i += 2
            continue
        kept.append(word)
        i += 1
    remaining = "".join(kept).strip()
    if remaining:
        inv.args.append(remaining)
    return inv
