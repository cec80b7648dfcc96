"""A small store of the most recently used values, safe across a server's threads: what the
state column keeps decoded (``table/state_column.py``), what the board keeps cut
(``web/serving/live.py``), and the rules entry found for each name (``reference/names.py``). Past
``size`` values, the one used longest ago goes. ``size`` may be a function, asked at each ``put``
(the stores kept per game follow the number of games being played, ``referee/table/playing.py``)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable


class Recent:
    def __init__(self, size: int | Callable[[], int]) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.values: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable):
        """The value kept for ``key`` (now the most recently used), or None."""
        with self.lock:
            value = self.values.get(key)
            if value is not None:
                self.values.move_to_end(key)
            return value

    def put(self, key: Hashable, value) -> None:
        with self.lock:
            self.values[key] = value
            self.values.move_to_end(key)
            limit = self.size() if callable(self.size) else self.size
            while len(self.values) > limit:
                self.values.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.values.clear()
