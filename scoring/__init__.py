"""The scoring app: tournaments, pairing, results, standings, score sheets."""
