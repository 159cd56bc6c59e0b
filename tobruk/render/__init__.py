"""Pictures of the game: pure functions from data to SVG text."""
