"""How the app is served, apart from what any page says: the process and its workers (``serve``,
``workers``, ``lan``), every request's checks and headers (``security``, ``input_limits``,
``throttle``, ``error_pages``), the bytes sent (``compression``, ``static_files``), and the board's
live parts, what a tablet that folded brigades is sent of them, and its poll answered before
Flask (``live``, ``folds``, ``quick_poll``). The blueprints and views beside this package say what
a page shows and import this package; nothing here knows a game or imports a page."""
