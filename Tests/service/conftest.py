"""Fixtures of the service's pytest suite: the release `shop serve` on a temporary data folder.

`shop` is `.build/release/shop` (Scripts/test builds it first), or `$SHOP_BINARY`.
"""

import contextlib
import os
import pathlib
import signal
import sqlite3
import subprocess
import tempfile

import httpx
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOP = os.environ.get("SHOP_BINARY", str(ROOT / ".build" / "release" / "shop"))
CONTAINER = "iCloud.shop"
LISTENING = "shop serve: listening on "


def shop(*arguments, data, check=True, input=None):
    """Runs `shop ARGUMENTS --data DATA` (with `input` on its standard input) and returns the
    finished process."""
    return subprocess.run(
        [SHOP, *arguments, "--data", str(data)], input=input, capture_output=True, text=True, timeout=60, check=check
    )


def add_user(data, name, password):
    """Adds the user `name` with `password` (`shop user add`, the password read from stdin)."""
    shop("user", "add", name, data=data, input=password + "\n")


def create_token(data, *kind, label=None):
    """A new token from `shop token create` (kind: "--admin", "--api" or "--user", NAME)."""
    arguments = ["token", "create", *kind] + (["--label", label] if label else [])
    return shop(*arguments, data=data).stdout.strip()


def upload_urls(client, database_url, requests):
    """The upload URLs `assets/upload` at `database_url` hands out for `requests` (each
    `{"recordType", "fieldName"}`, with a `recordName` or not), each good for one upload."""
    answer = client.post(f"{database_url}/assets/upload", json={"tokens": requests})
    assert answer.status_code == 200, answer.text
    return [token["url"] for token in answer.json()["tokens"]]


def uploaded_asset(client, database_url, record_type, field_name, content, record_name=None):
    """`content` uploaded through CloudKit's asset flow at `database_url` (an upload URL from
    `assets/upload`, then the bytes to it): the receipt to save as the field's value
    (`{"receipt", "fileChecksum", "size"}`)."""
    request = {"recordType": record_type, "fieldName": field_name} | ({"recordName": record_name} if record_name else {})
    url = upload_urls(client, database_url, [request])[0]
    uploaded = client.post(url, content=content, headers={"Content-Type": "application/octet-stream"})
    assert uploaded.status_code == 200, uploaded.text
    return uploaded.json()["singleFile"]


def audit(path):
    """Everything wrong with the database file at `path`, as sentences (empty when all holds): the
    audit of docs/reliability.md, read with Python's sqlite3 while no `shop` has the file open.
    `PRAGMA integrity_check` is `ok`; no record holds a DELETE_SELF reference (a REFERENCE field
    whose `_action_FIELD` column is 1) to a record that is gone; the change log (`_changes`)
    agrees with the data: a stored record's last logged change is a save with its type and
    current change tag, a record that is gone has a deletion last."""
    problems = []
    with contextlib.closing(sqlite3.connect(path)) as db:
        integrity = [row[0] for row in db.execute("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            problems.append(f"integrity_check: {'; '.join(integrity)}")
        tables = [row[0] for row in db.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT GLOB '_*' AND name NOT GLOB 'sqlite_*'")]
        stored, references = {}, []
        for table in tables:
            columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
            if "_recordName" not in columns:
                continue  # not a record type's table (GRDB's grdb_migrations)
            fields = [column.removeprefix("_action_") for column in columns if column.startswith("_action_")]
            selected = ", ".join(['"_recordName"', '"_changeTag"'] + [f'"{field}", "_action_{field}"' for field in fields])
            for row in db.execute(f'SELECT {selected} FROM "{table}"'):
                stored[row[0]] = (table, row[1])
                for index, field in enumerate(fields):
                    target, action = row[2 + 2 * index], row[3 + 2 * index]
                    if action == 1 and target is not None:
                        references.append((table, row[0], field, target))
        for table, name, field, target in references:
            if target not in stored:
                problems.append(f"{table} '{name}' survives its deleted parent '{target}' ({field})")
        last = {}
        for name, record_type, kind, tag in db.execute("SELECT recordName, recordType, kind, changeTag FROM _changes ORDER BY seq"):
            last[name] = (record_type, kind, tag)
        for name, (table, tag) in stored.items():
            if name not in last:
                problems.append(f"{table} '{name}' is stored but not in the change log")
            elif last[name] != (table, "saved", tag):
                problems.append(f"{table} '{name}' has tag {tag}; its last logged change is {last[name]}")
        for name, (record_type, kind, _) in last.items():
            if name not in stored and kind != "deleted":
                problems.append(f"{record_type} '{name}' is gone but its last logged change is {kind}, not a deletion")
    return problems


class Server:
    """A running `shop serve` and what a test needs to reach it."""

    def __init__(self, data, extra=()):
        self.data = pathlib.Path(data)
        self.process = subprocess.Popen(
            [SHOP, "serve", "--data", str(self.data), *(extra or ["--port", "0"])],
            stdout=subprocess.PIPE, stderr=open(self.data / "serve.log", "a"), text=True,
        )
        line = self.process.stdout.readline()
        if not line.startswith(LISTENING):
            self.process.kill()
            raise RuntimeError(f"shop serve did not start: {line!r}; see {self.data / 'serve.log'}")
        self.url = line[len(LISTENING):].strip()
        self.stdout_rest = None

    def database_url(self, environment="development", database="public", container=CONTAINER):
        return f"{self.url}/database/1/{container}/{environment}/{database}"

    def stop(self, sig=signal.SIGTERM, timeout=15):
        """Sends `sig` and returns the exit status."""
        if self.process.stdout.closed:
            return self.process.returncode
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            status = self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            status = None
        self.stdout_rest = self.process.stdout.read()
        self.process.stdout.close()
        return status


@pytest.fixture(scope="session")
def data_folder():
    with tempfile.TemporaryDirectory(prefix="shop-serve-") as folder:
        yield pathlib.Path(folder)


@pytest.fixture(scope="session")
def admin_token(data_folder):
    return create_token(data_folder, "--admin", label="pytest-admin")


@pytest.fixture(scope="session")
def server(data_folder, admin_token):
    running = Server(data_folder)
    yield running
    assert running.stop() == 0


@pytest.fixture()
def client(server, admin_token):
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {admin_token}"}, timeout=30) as session:
        yield session


@contextlib.contextmanager
def own_server(*extra, stop_signal=signal.SIGTERM):
    """A server of its own on a new data folder, started with the `extra` options and carrying an
    admin token (`.token`); stopped with `stop_signal` afterwards (SIGTERM must exit cleanly)."""
    with tempfile.TemporaryDirectory(prefix="shop-serve-") as folder:
        token = create_token(folder, "--admin", label="admin")
        running = Server(folder, extra=["--port", "0", *extra])
        running.token = token
        try:
            yield running
        finally:
            status = running.stop(stop_signal)
            assert stop_signal != signal.SIGTERM or status == 0


@pytest.fixture()
def fresh_server():
    """A server of its own on a new data folder, with an admin token: for tests that stop it."""
    with own_server(stop_signal=signal.SIGKILL) as running:
        yield running
