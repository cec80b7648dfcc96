"""Referee playing itself (issue 50): a simulated table answers the Foe's questions, and the Foe
plays both sides of a game through the game's own actions, dice and log. For the tests, the
benchmark and the measured tables of ``docs/foe.md``: the app at the table never measures."""
