"""The JSON wire form shared by the API, the command line and batch rechecks: request bodies (`requests`), read
into the engine's decks and contexts (`inputs`), and reports written back as JSON (`reports`, `answers`).

The models (`requests`, `request_values`, `enums`, `answers`, `judge`) are plain pydantic and import nothing of the
engine, so `deckcheck.client` can use them without loading it."""
