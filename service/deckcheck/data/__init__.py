"""Loading the card catalogue and the Forbidden/Limited lists once, and looking cards up by name."""
