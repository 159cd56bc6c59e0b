"""Maps from geography: the geographic datasets (places, lines and areas in latitude and longitude) and their
rasterising onto a game's hex grid."""
