"""The first answer to a tap on a list or a campaign, kept by the tap's one-time token
(``web/taps.py``): the same tap sent again (its answer lost on the way, or tapped twice) is answered
with where the first one led, and changes nothing.

A game's tap keeps its token with its log entry (``service.perform``). A list or a campaign is
changed by many kinds of write (a list saved, renamed, shared, deleted; a campaign's step, a game
started from it, a day begun), so the token goes with whatever the write commits: the row is added
to the write's own transaction as it commits (``keep_with_the_write``), so the tap and its token
land together or not at all, and two requests with one token cannot both land (the token is unique:
the second one's commit is refused). Once the write has answered, the row says where that answer
led (``answered``); a write that was refused takes its token back (``forget``).

A token is asked for again only within moments of its tap (its answer lost, or a second tap), so a
tap's answer is kept for two days and then let go (``let_go_of_old_answers``, every
``SWEEP_EVERY`` answers): a club server that runs all season keeps a table of days, not of seasons.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Optional

from sqlalchemy import bindparam, delete, event, update
from sqlalchemy.orm import Session as OrmSession
from sqlmodel import Field, Session, SQLModel, select

from .models import now

# The token a request's session adds to the next commit, and the one it added.
_PENDING = "tap_token_pending"
_KEPT = "tap_token_kept"
# The tablet token a seat-taking write handed over, kept with the write's token (``hand_over``).
_HANDED = "tap_token_handed"

KEPT_FOR = timedelta(days=2)
SWEEP_EVERY = 200
_answers_since_sweep = 0


class TapAnswer(SQLModel, table=True):
    """One tap on a list or a campaign that changed something, and where its answer led."""

    __tablename__ = "tapanswer"

    id: Optional[int] = Field(default=None, primary_key=True)
    token: str = Field(unique=True, index=True)
    place: str = ""  # the address the tap was sent to
    status: int = 0  # the first answer's status (0: the write committed, its answer not yet known)
    location: str = ""  # where that answer led (a redirect, or htmx's HX-Redirect)
    # A tap that took a seat renewed the tablet's token: a digest of the cookie it came with, and
    # the token it handed over, for the same tablet sending the same tap again (``hand_over``).
    handed_from: str = Field(default="", sa_column_kwargs={"server_default": ""})
    handed_to: str = Field(default="", sa_column_kwargs={"server_default": ""})
    created: datetime = Field(default_factory=now)


_BY_TOKEN = select(TapAnswer).where(TapAnswer.token == bindparam("token")).limit(1)


def answer_of(session: Session, token: str) -> TapAnswer | None:
    """The tap with this token, if it was applied."""
    return session.exec(_BY_TOKEN, params={"token": token}).first()


def keep_with_the_write(session: Session, token: str, place: str) -> None:
    """The token goes into the database with the next commit of this session (the write's)."""
    session.info[_PENDING] = (token, place[:300])


def hand_over(session: Session, handed_from: str, handed_to: str) -> None:
    """The write that commits next renewed the tablet's token (it took a seat): the tap's token
    keeps which tablet it came from (a digest of its cookie) and the token it was handed. A token
    already committed with an earlier step of the same write (a campaign's day: the campaign, then
    its games' seats) is told in the same transaction as the seat."""
    kept = session.info.get(_KEPT)
    if kept is None:
        session.info[_HANDED] = (handed_from, handed_to)
    else:
        session.execute(update(TapAnswer).where(TapAnswer.token == kept)
                        .values(handed_from=handed_from, handed_to=handed_to))


def drop_pending(session: Session) -> str | None:
    """The token this session kept with a write (None: nothing was committed), no longer pending."""
    session.info.pop(_PENDING, None)
    session.info.pop(_HANDED, None)
    return session.info.pop(_KEPT, None)


@event.listens_for(OrmSession, "before_commit")
def _with_the_commit(session) -> None:
    pending = session.info.pop(_PENDING, None)
    handed_from, handed_to = session.info.pop(_HANDED, ("", ""))
    if pending is not None:
        token, place = pending
        session.add(TapAnswer(token=token, place=place, handed_from=handed_from, handed_to=handed_to))
        session.info[_KEPT] = token


def answered(session: Session, token: str, status: int, location: str) -> None:
    """Where the first answer to the tap led."""
    global _answers_since_sweep
    session.execute(update(TapAnswer).where(TapAnswer.token == token)
                    .values(status=status, location=location[:500]))
    _answers_since_sweep += 1
    if _answers_since_sweep >= SWEEP_EVERY:
        _answers_since_sweep = 0
        let_go_of_old_answers(session)
    session.commit()


def let_go_of_old_answers(session: Session, at: datetime | None = None) -> int:
    """Delete the answers of taps older than ``KEPT_FOR`` (in the caller's transaction); how many."""
    cutoff = (at or now()) - KEPT_FOR
    return session.execute(delete(TapAnswer).where(TapAnswer.created < cutoff)).rowcount


def forget(session: Session, token: str) -> None:
    """A tap refused after something was committed with it: sent again, it is tried again."""
    session.rollback()
    session.execute(delete(TapAnswer).where(TapAnswer.token == token))
    session.commit()
