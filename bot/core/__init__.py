"""The application core: the use cases every command and edge shares, returning typed values (never a Reply).

Layers, top to bottom: edges (``bot/telegram_app``, ``bot/cli.py``) → commands (``bot/commands``) → this core →
``engine`` (pure computation) | ``storage`` (database) | ``tools`` (side-effect capabilities).

One module per use case or rule:

- :mod:`bot.core.run_method` — run a built-in sparse-parity method (and its baseline method, ``sgd``).
- :mod:`bot.core.run_generator` — score an IR challenge's built-in generator.
- :mod:`bot.core.judging` — judge a submission: IR text, ``generate()`` or ``solve()``.
- :mod:`bot.core.recording` — answer a request once: reuse, supersede a resource-limit failure, store.
- :mod:`bot.core.comparison` — compare a stored run with its baseline and the record.
- :mod:`bot.core.baselines` — which baseline a run is compared with.
- :mod:`bot.core.log_entry` — the run's sprint-log entry.
- :mod:`bot.core.rescoring` — re-score stored runs when a metric's version changes.
- :mod:`bot.core.idea_approval` — run an approved ``/idea`` once (claim, run, link, log), discard one.
- :mod:`bot.core.idea_proposal` — ``/idea TEXT``: the rate, the assistant's loop (:mod:`bot.core.idea_drafting`)
  under the monthly budget (:mod:`bot.core.idea_budget`), the card stored as proposed or failed.
- :mod:`bot.core.board_scope`, :mod:`bot.core.board_entries` — which board a request means, and its entries.
- :mod:`bot.core.stored_runs`, :mod:`bot.core.store_health`, :mod:`bot.core.db_move` — the stored runs a command
  lists, what ``status`` shows of the database and its queues, ``db move``.
- :mod:`bot.core.store` — the storage names a command may hold (its error, the rows handed back); commands import
  nothing from ``storage`` themselves (import contract).

The core asks for the services it uses through :class:`bot.core.services.Services` (the composition root's
AppContext provides them); it never imports a command, an edge, or Telegram.
"""
