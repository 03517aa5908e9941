"""Models of the floor: casinos, pits, tables, games, rule sets and pay tables."""
