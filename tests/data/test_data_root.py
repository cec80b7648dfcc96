"""An installed copy pointed at another copy of the data files (``REFEREE_DATA_ROOT``) reads both
games' army lists, scenarios and campaign files from there."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]


def test_both_games_and_the_campaign_files_read_the_data_root_they_are_given(tmp_path):
    for entry in REPOSITORY.iterdir():  # another copy of the data: links to this one's
        if not entry.name.startswith("."):
            (tmp_path / entry.name).symlink_to(entry)
    probe = ("import json; from referee.data import blackpowder, oilandiron, campaign_files; "
             "print(json.dumps([str(blackpowder.ARMYLISTS), str(oilandiron.ARMYLISTS), "
             "str(oilandiron.SCENARIOS), str(campaign_files.FOLDER)]))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True,
                         env={**os.environ, "REFEREE_DATA_ROOT": str(tmp_path)}).stdout
    assert all(path.startswith(str(tmp_path)) for path in json.loads(out))
