"""The sprint log: entries saved in the database outbox first, then delivered in order to one sink
(a local Markdown file by default, or a Google Doc)."""
