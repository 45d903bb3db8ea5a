"""Compatibility with the group's public evaluators (their exact protocols, for comparable numbers)."""
