"""Mechanics shared by the game systems of this family, parameterised by each system's data."""
