"""The Dally-model IR engine (docs/metrics.md#dally-ir-cost): parse an IR program, price it, and check it on test
instances.

Modules, one idea each: ``instruction_set`` (ops, arities, scorer dialects), ``errors`` (rejections), ``program``
(the parsed form), ``parser`` (text -> Program), ``cost`` (the ⌈√a⌉ read cost), ``static_check`` (rules decidable
without running) and ``simulate`` (run all test instances at once); ``engine.scoring.ir`` combines them with a
challenge's instances (the public entry points).
"""
