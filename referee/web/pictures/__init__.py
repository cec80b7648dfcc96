"""Pictures drawn on the server as SVG inside the page: odds as bars, a brigade's units as a strip,
a Rig's locations and heat, a battle's story, a Hundred Days campaign day by day, a scenario's forces.

Each is a function from numbers the engines already worked out (a board view's rows, an odds
line's :class:`~referee.core.odds.Chances`) to a small ``<svg role="img">`` whose ``aria-label``
says its numbers; the numbers are also in the page's text a tap away. Drawn here rather than with
pygal: a five-bar pygal chart is some 12.7 kB with its style sheet, over the 10 kB a picture may
cost (docs/architecture.md, "Pictures").
"""
from .bars import odds_bars
from .brigade_strip import brigade_strip
from .campaign import campaign_timeline, roster_timeline
from .rig import rig_diagram
from .score import score_by_round
from .setting_up import arrivals_timeline, strength_bars
from .story import battle_story, luck_words

PICTURES = {"odds_bars": odds_bars, "brigade_strip": brigade_strip, "rig_diagram": rig_diagram, "battle_story": battle_story,
            "strength_bars": strength_bars, "arrivals_timeline": arrivals_timeline,
            "campaign_timeline": campaign_timeline, "score_by_round": score_by_round,
            "roster_timeline": roster_timeline}

__all__ = ["PICTURES", "arrivals_timeline", "battle_story", "campaign_timeline", "luck_words", "brigade_strip", "odds_bars", "rig_diagram", "roster_timeline", "score_by_round", "strength_bars"]
