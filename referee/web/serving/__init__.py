"""How the app is served, apart from what any page says: the process and its workers (``serve``,
``workers``, ``lan``), every request's checks and headers (``security``, ``input_limits``,
``throttle``, ``error_pages``), the bytes sent (``compression``, ``static_files``), and the board's
live parts and its poll answered before Flask (``live``, ``quick_poll``). The blueprints beside
this package say what a page shows; nothing here knows a game."""
