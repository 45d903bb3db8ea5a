"""The engine's version: stored with every result so that numbers can be traced to the code that made them."""

__version__ = "0.1.0"
