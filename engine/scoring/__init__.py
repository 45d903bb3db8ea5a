"""Scoring on a challenge: an IR program priced by the Dally model and checked on the challenge's instances.

Sits above both what it combines — ``engine.ir`` (parse, check, simulate, cost) and ``engine.challenges`` (the
instances and correctness rules) — so neither of those imports the other's user.
"""
