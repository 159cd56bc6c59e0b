"""Tools over many games and finished ones: the fuzzer, the arena, the game log form."""
