"""Configuration from the environment: a secret made once and kept, the database from DATABASE_URL."""
from __future__ import annotations

import stat

from referee import create_app
from referee.web.serving import config


def test_the_secret_key_is_made_once_and_kept_so_sessions_survive_a_restart(tmp_path, monkeypatch):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    first = config.secret_key(tmp_path)
    assert len(first) >= 32
    assert config.secret_key(tmp_path) == first
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600


def test_the_environment_wins(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite'}")
    settings = config.from_environment(tmp_path)
    assert settings["SECRET_KEY"] == "from-env"
    assert settings["DATABASE_URL"].endswith("env.sqlite")
    assert settings["WTF_CSRF_TIME_LIMIT"] >= 12 * 3600


def test_the_default_database_is_a_sqlite_file_in_the_instance_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert config.from_environment(tmp_path)["DATABASE_URL"] == f"sqlite:///{tmp_path / 'referee.sqlite'}"


def test_the_app_starts_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("SECRET_KEY", "s")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'app.sqlite'}")
    app = create_app()
    assert app.config["DATABASE_URL"].endswith("app.sqlite")
    assert app.test_client().get("/").status_code == 200
    assert (tmp_path / "app.sqlite").exists()
