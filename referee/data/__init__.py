"""Loading and validating the shipped data: ``armylists/`` and ``scenarios/``.

Black Powder: :mod:`referee.data.blackpowder` (unit profiles, nations, commanders) and
:mod:`referee.data.scenarios` (scenarios and typed-in forces to a battle document).
"""
