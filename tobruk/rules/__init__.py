"""Mechanics shared by the game systems (zones of control, movement, ...), parameterised by each system."""
