"""Army lists and squadrons: the list models, their checks, the export file and share codes,
and a battle or engagement document from two lists. Pure Python: the saved lists' tables are
in :mod:`referee.table.lists`, the builder screens in :mod:`referee.web.lists`.
"""
from .blackpowder import Army, blank_army, check_army
from .examples import example_lists
from .games import game_from_lists
from .oilandiron import Squadron, blank_squadron, check_squadron
from .problems import ListFileError, NotReady, Problem
from .travel import check, dump, export_list, export_text, import_data, import_text, parse

__all__ = ["Army", "Squadron", "Problem", "ListFileError", "NotReady", "blank_army", "blank_squadron",
           "check", "check_army", "check_squadron", "dump", "parse", "export_list", "export_text",
           "import_data", "import_text", "game_from_lists", "example_lists"]
