"""``python -m referee`` serves the app on the local network (port from ``PORT``, default 5000);
``python -m referee reset-password NAME`` gives an account a new password (``web/reset_password.py``);
``python -m referee selfplay ...`` lets the Foe play both sides of many games (``selfplay/command.py``)."""
import sys

from .selfplay.command import main as selfplay
from .web.reset_password import reset_password
from .web.serving.serve import main

if sys.argv[1:2] == ["reset-password"]:
    raise SystemExit(reset_password(sys.argv[2:]))
if sys.argv[1:2] == ["selfplay"]:
    raise SystemExit(selfplay(sys.argv[2:]))
main()
