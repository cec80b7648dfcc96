"""What this game is called: the one place its name is written.

``OIL_AND_IRON`` is the name stored with every engagement, saved squadron, campaign and data folder
of this system; ``OIL_AND_IRON_LABEL`` the words a person reads. The engine's own modules take them
from here (the contract, ``game.py``, and the engagement document, ``setup.py``); the rest of
Referee asks ``referee.systems``.
"""

OIL_AND_IRON = "oilandiron"
OIL_AND_IRON_LABEL = "Of Oil and Iron"
