"""Batch rechecks of stored decks against a Forbidden/Limited list."""
