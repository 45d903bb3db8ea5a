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
            else:
                known = sorted(f"--{k}" for k in [*command.value_options, *known_flags])
                raise UsageError(
                    f"unknown option --{key} for {command.name}",
                    hint=("options: " + ", ".join(known)) if known else f"usage: {command.name} {command.usage}",
                )
        elif tok == "-" or not (m := _KEY_VALUE.match(tok)):
            inv.args.append(tok)
        else:
            inv.options[m.group(1)] = m.group(2)
        i += 1
    return inv
