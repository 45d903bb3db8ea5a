"""Admin-editable tool configuration: a typed schema with defaults (schema.py), parsers (values.py), and the
audited store of overrides in the database (store.py)."""
