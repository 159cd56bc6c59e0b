"""The model every game system shares: hexes and their pixels, the board with its terrain and hexsides, the counters."""
