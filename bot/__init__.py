"""The application: settings, composition root, transport-agnostic commands, CLI and Telegram edge."""
