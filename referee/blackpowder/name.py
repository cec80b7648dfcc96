"""What this game is called: the one place its name is written.

``BLACK_POWDER`` is the name stored with every game, saved list and data folder of this system;
``BLACK_POWDER_LABEL`` the words a person reads. The engine's own modules take them from here (the
contract, ``game.py``, and the state document, ``model.py``); the rest of Referee asks
``referee.systems``.
"""

BLACK_POWDER = "blackpowder"
BLACK_POWDER_LABEL = "Black Powder Epic Battles"
