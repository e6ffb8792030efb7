"""A PostgreSQL database for the server's tests: MJC_TEST_POSTGRES (a
postgresql:// URL; .ci/run starts a server and sets it), else a local
default. Tests skip when none answers, except under CI, which provides one."""

from __future__ import annotations

import os

import pytest

URL = os.environ.get("MJC_TEST_POSTGRES", "postgresql://mjc:mjc@127.0.0.1:5432/mjc_test")


def postgres_url() -> str:
    try:
        import psycopg
    except ImportError:
        if os.environ.get("CI"):
            raise
        pytest.skip("psycopg is not installed (pip install '.[postgres]')")
    try:
        conn = psycopg.connect(URL, autocommit=True, connect_timeout=3)
    except psycopg.Error as exc:
        if os.environ.get("CI"):
            raise AssertionError(f"CI provides PostgreSQL at {URL}, but: {exc}") from None
        pytest.skip(f"no PostgreSQL at {URL.split('@')[-1]} ({exc})")
    # a clean schema for each test module
    conn.execute("DROP TABLE IF EXISTS actions, seats, tables")
    conn.close()
    return URL
