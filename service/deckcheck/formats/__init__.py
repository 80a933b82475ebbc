"""Deck formats: .ydk files, ydke:// links and plain-text lists."""
