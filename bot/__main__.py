"""``python -m bot`` = the ``sutro`` command."""

from bot.cli import run

if __name__ == "__main__":  # worker processes (forkserver/spawn) import this module as __mp_main__: do not run
    run()
