"""``/idea``: the assistant drafts an experiment (``drafting.py``, the tool-use loop over ``tools.assistant``), a person
approves it, and the approved run goes through the normal stored path (the use case in
:mod:`bot.core.idea_approval`, rendered by ``approval.py``). Configuration is read in
one place (``config.py``); limits in ``limits.py``; the card text in ``card.py``."""
