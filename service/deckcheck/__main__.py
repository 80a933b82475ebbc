"""`python -m deckcheck`: the deckcheck command."""

from deckcheck.cli import main

main()
