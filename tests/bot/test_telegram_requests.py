"""Reading chat text as a request: command word, shell-like tokens with a fallback, pasted code detection."""

from __future__ import annotations

from bot.telegram_app.requests import (
    code_file_name,
    command_word,
    fenced_blocks,
    looks_like_code,
    split_tokens,
)


def test_command_word_and_addressee() -> None:
    assert command_word("/run local_update n=20", "sutro_bot") == ("run", "local_update n=20")
    assert command_word("/RUN@Sutro_Bot  x", "sutro_bot") == ("run", "x")
    assert command_word("/run@other_bot x", "sutro_bot") is None
    assert command_word("hello /run", "sutro_bot") is None
    assert command_word("/help", None) == ("help", "")


def test_tokens_follow_shell_quotes_and_survive_unbalanced_ones() -> None:
    assert split_tokens('note "two words" k=v') == ["note", "two words", "k=v"]
    assert split_tokens("don't panic") == ["don't", "panic"]


def test_fenced_blocks_and_code_detection() -> None:
    text = "look:\n```python\ndef solve(x):\n    return x\n```\nand\n```\nplain\n```"
    assert fenced_blocks(text) == [("python", "def solve(x):\n    return x\n"), ("", "plain\n")]
    assert looks_like_code("def solve(a, b):\n    return a") == "solution.py"
    assert looks_like_code("  def generate(n):\n    pass") == "solution.py"
    assert looks_like_code("x = load a\ny = mul x x\nstore y") == "program.ir"
    assert looks_like_code("we should solve this today") is None
    assert looks_like_code("a = b") is None  # one line of prose-like text is not a program
    assert looks_like_code("1,2\nmul 3,1,2\n3") == "program.ir"  # Dally IR (docs/metrics.md#dally-ir-cost)
    assert looks_like_code("1, 2; mul 3,1,2; 3") == "program.ir"
    assert looks_like_code("1, 2\nwe meet at 3\n4") is None
    assert looks_like_code("12, 16") is None  # numbers in chat are not a program


def test_code_file_name_prefers_the_fence_language() -> None:
    assert code_file_name("python", "anything") == "solution.py"
    assert code_file_name("ir", "def solve(): pass") == "program.ir"
    assert code_file_name("", "x = load a\ny = add x x") == "program.ir"
