"""Participants: the tournament's members (organisers and referees) and its entrants (teams and
players): registration, late entry and withdrawal."""
