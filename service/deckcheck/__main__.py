"""`python -m deckcheck`: the deckcheck command."""

from deckcheck.cli import main

if __name__ == "__main__":
    main()
