"""The Sutro group's published record histories, shipped as data (records.toml) and read by :mod:`.records`."""
