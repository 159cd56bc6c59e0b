"""Data files in, validated frozen values out: tables with field-naming errors, maps, counters and scenarios."""
