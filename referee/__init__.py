"""Referee: a measurement-free tablet referee for tabletop wargames."""


def create_app(test_config=None):
    """The Flask app (``referee.web.app``). Imported here lazily so the rules engines, which live
    in this package, never pull in Flask or the database."""
    from .web.app import create_app as _create_app
    return _create_app(test_config)
