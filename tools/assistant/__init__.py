"""The research assistant's side of ``/idea``: its prompt and tool descriptions (``prompt.py``), the tools it may
call (``toolbox.py``), the experiment spec it must end with (``spec.py``) and the contract check that dry-runs the
code it proposes in the sandbox (``contract.py``)."""
