"""The reference loaded once for the tests that only read it, and an app for the page tests."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from referee.reference import reference as _reference  # noqa: E402


@pytest.fixture(scope="session")
def ref():
    return _reference()


@pytest.fixture
def app(tmp_path):
    from referee import create_app
    return create_app({"TESTING": True, "SECRET_KEY": "tests", "WTF_CSRF_ENABLED": False, "SEED_DEMO": False,
                       "DATABASE_URL": f"sqlite:///{tmp_path / 'reference.sqlite'}"})


@pytest.fixture
def client(app):
    return app.test_client()
