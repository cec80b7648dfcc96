"""A package, so these test modules never clash by name with those in tests/rules/oilandiron:
pytest's default import mode needs unique file names outside packages."""
