"""Where a form may send the tablet next: only a path on this site."""
from __future__ import annotations

from urllib.parse import unquote, urlsplit


def _stays_here(path: str) -> bool:
    if not path.startswith("/") or path.startswith("//"):
        return False
    # Browsers read a backslash as a slash and drop tabs and line breaks, so "/\\evil" and
    # "/\t/evil" would both become "//evil", another site.
    if "\\" in path or any(c.isspace() or not c.isprintable() for c in path):
        return False
    parts = urlsplit(path)
    return not parts.scheme and not parts.netloc


def safe_next(target: str | None, default: str) -> str:
    """``target`` when it is a path on this site (checked as sent and percent-decoded), else
    ``default``: a form cannot send the tablet elsewhere."""
    if target and _stays_here(target) and _stays_here(unquote(target)):
        return target
    return default
