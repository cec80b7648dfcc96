"""What the engines share, and nothing above them: the contract a game implements, its results,
changes and dice, reading and changing a state document, the Foe's common steps, the shared
settings actions, what a tap touches, and the limits on parsing a player's text. Pure Python."""
