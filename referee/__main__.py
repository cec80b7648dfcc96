"""``python -m referee`` serves the app on the local network (port from ``PORT``, default 5000)."""
from .web.serve import main

main()
