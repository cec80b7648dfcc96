"""Referee: a measurement-free tablet referee for tabletop wargames."""
