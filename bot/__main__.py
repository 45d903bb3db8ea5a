"""``python -m bot`` = the ``sutro`` command."""

from bot.cli import main

main()
