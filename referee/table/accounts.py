"""Accounts on a club server and the server's one-time choice of mode.

A server runs either "this laptop only" (``laptop``: no login, one trusted table, as Referee
always was) or as a club server (``club``: each person logs in, lists belong to an account,
each game has an umpire and players). The first start asks which; the answer is stored here.

Passwords are hashed with werkzeug's ``generate_password_hash`` (scrypt). An account made from
a list owner's name has no password: nobody can log in to it until the club's first account
(the administrator) gives it one.
"""
from __future__ import annotations

import secrets

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select
from werkzeug.security import check_password_hash, generate_password_hash

from .models import Account, ServerSetting, SignIn
from .service import BadInput, NotFound, TableError

LAPTOP = "laptop"
CLUB = "club"
MODES = (LAPTOP, CLUB)
MIN_PASSWORD = 8
MAX_NAME = 40


class Refused(TableError):
    """Only the club's first account may do that."""

    status = 403


def get_mode(session: Session) -> str | None:
    row = session.get(ServerSetting, "mode")
    return row.value if row is not None and row.value in MODES else None


def set_mode(session: Session, mode: str) -> None:
    if mode not in MODES:
        raise BadInput("Choose “this laptop only” or “a club server”.")
    row = session.get(ServerSetting, "mode") or ServerSetting(key="mode", value=mode)
    row.value = mode
    session.add(row)
    session.commit()


def clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise BadInput("Type your name.")
    if len(name) > MAX_NAME:
        raise BadInput(f"A name has at most {MAX_NAME} letters.")
    if not name.isprintable():
        raise BadInput("A name is made of letters, digits and spaces.")
    return name


def by_name(session: Session, name: str) -> Account | None:
    return session.exec(select(Account).where(Account.name == name)).first()


def get(session: Session, account_id: int) -> Account:
    account = session.get(Account, account_id)
    if account is None:
        raise NotFound("There is no such account.")
    return account


def for_owner(session: Session, name: str) -> Account:
    """The account a list owner's name stands for, made (without a password) the first time:
    on a "this laptop only" table, every name typed is an account nobody logs in to."""
    account = by_name(session, name)
    if account is None:
        account = Account(name=name)
        session.add(account)
        session.flush()
    return account


def _check_password(password: str, again: str | None) -> str:
    if len(password or "") < MIN_PASSWORD:
        raise BadInput(f"A password needs at least {MIN_PASSWORD} characters.")
    if len(password) > 200:
        raise BadInput("A password has at most 200 characters.")
    if again is not None and password != again:
        raise BadInput("The two passwords differ: type the same password twice.")
    return password


def register(session: Session, name: str, password: str, again: str | None = None, admin: bool = False) -> Account:
    """A new account. A name already taken (also by a list made before accounts) is refused."""
    name = clean_name(name)
    _check_password(password, again)
    if by_name(session, name) is not None:
        raise BadInput(f"“{name}” is already taken. Choose another name, or log in.")
    account = Account(name=name, password_hash=generate_password_hash(password), is_admin=admin)
    session.add(account)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        raise BadInput(f"“{name}” is already taken. Choose another name, or log in.") from None
    session.refresh(account)
    return account


def authenticate(session: Session, name: str, password: str) -> Account:
    account = by_name(session, " ".join((name or "").split()))
    if account is None or not account.password_hash or not check_password_hash(account.password_hash, password or ""):
        raise BadInput("That name and password do not match an account.")
    return account


def give_password(session: Session, admin: Account, account_id: int, password: str) -> Account:
    """The administrator gives an account made from a list owner's name its first password."""
    if not admin.is_admin:
        raise Refused("Only the club's first account can give a first password.")
    account = get(session, account_id)
    if account.password_hash:
        raise BadInput(f"“{account.name}” already has a password: only its owner can log in to it.")
    account.password_hash = generate_password_hash(_check_password(password, None))
    session.add(account)
    session.commit()
    return account


def reset_password(session: Session, name: str, password: str) -> Account:
    """A new password for the account named ``name``, from the server machine itself (``python -m
    referee reset-password``): every session it had is ended, on every tablet."""
    account = by_name(session, " ".join((name or "").split()))
    if account is None:
        raise NotFound(f"There is no account named “{name}”.")
    account.password_hash = generate_password_hash(_check_password(password, None))
    session.add(account)
    session.commit()
    sign_out_everywhere(session, account.id)
    return account


def without_password(session: Session) -> list[Account]:
    return list(session.exec(select(Account).where(Account.password_hash.is_(None)).order_by(Account.name)).all())


def has_accounts(session: Session) -> bool:
    return session.exec(select(Account.id).where(Account.password_hash.is_not(None)).limit(1)).first() is not None


# --- signed-in sessions -----------------------------------------------------------------------------

def sign_in(session: Session, account: Account) -> str:
    """A new signed-in session of ``account``: the random token its cookies carry."""
    token = secrets.token_urlsafe(24)
    session.add(SignIn(token=token, account_id=account.id))
    session.commit()
    return token


def signed_in(session: Session, token: str) -> Account | None:
    """The account a signed-in session's token stands for, while that session lasts."""
    if not token:
        return None
    row = session.exec(select(SignIn).where(SignIn.token == token)).first()
    account = session.get(Account, row.account_id) if row is not None else None
    return account if account is not None and account.password_hash else None


def sign_out(session: Session, token: str) -> None:
    """End one signed-in session: its token opens nothing from now on."""
    if token:
        session.execute(delete(SignIn).where(SignIn.token == token))
        session.commit()


def sign_out_everywhere(session: Session, account_id: int) -> None:
    session.execute(delete(SignIn).where(SignIn.account_id == account_id))
    session.commit()
