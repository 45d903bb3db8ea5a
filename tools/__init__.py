"""Capabilities with side effects or rendering: sprint log and its outbox, leaderboards, records, digest, config."""
