"""A wallet top-up API in Python's standard library only (http.server, sqlite3), to probe with
examples/probe/top_up.toml: `python3 top_up_service.py naive|idempotent DATABASE [PORT]`.
It prints the port it listens on (on 127.0.0.1), then serves:

  POST /top-ups      {"wallet": "w1", "amount": 10, ...} with an Idempotency-Key header
  GET  /wallets/w1   {"balance": N}
  POST /reset        the balance to 0, the stored keys deleted

`naive` applies every request. `idempotent` follows the IETF draft: in one SQLite transaction
(BEGIN IMMEDIATE) it looks the key up; the same key with the same body gets the stored answer
again, with another body 422; a new key is applied and stored with its request's fingerprint
and its answer in the same transaction as the balance. A request without the key gets 400.
"""

import hashlib
import json
import sqlite3
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODE = sys.argv[1]
DATABASE = sys.argv[2]
PORT = int(sys.argv[3]) if len(sys.argv) > 3 else 0


def compact(value):
    """JSON without spaces, as most services write it."""
    return json.dumps(value, separators=(",", ":"))


def connect():
    connection = sqlite3.connect(DATABASE, timeout=5, isolation_level=None)
    return connection


def create_schema():
    with connect() as connection:
        connection.executescript(
            """
            CREATE TABLE IF NOT EXISTS wallets (id TEXT PRIMARY KEY, balance INTEGER NOT NULL);
            INSERT OR IGNORE INTO wallets VALUES ('w1', 0);
            CREATE TABLE IF NOT EXISTS idempotency_keys (
                key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL,
                status INTEGER NOT NULL, body TEXT NOT NULL);
            """
        )


def top_up(connection, amount):
    connection.execute("UPDATE wallets SET balance = balance + ? WHERE id = 'w1'", (amount,))
    (balance,) = connection.execute("SELECT balance FROM wallets WHERE id = 'w1'").fetchone()
    return 201, compact({"balance": balance})


def idempotent_top_up(connection, key, body, amount):
    fingerprint = hashlib.sha256(body).hexdigest()
    connection.execute("BEGIN IMMEDIATE")
    try:
        row = connection.execute(
            "SELECT fingerprint, status, body FROM idempotency_keys WHERE key = ?", (key,)
        ).fetchone()
        if row is not None:
            connection.execute("COMMIT")
            if row[0] != fingerprint:
                return 422, compact({"title": "Idempotency-Key reused with another body"})
            return row[1], row[2]
        status, answer = top_up(connection, amount)
        connection.execute(
            "INSERT INTO idempotency_keys VALUES (?, ?, ?, ?)", (key, fingerprint, status, answer)
        )
        connection.execute("COMMIT")
        return status, answer
    except Exception:
        connection.execute("ROLLBACK")
        raise


class Handler(BaseHTTPRequestHandler):
    def answer(self, status, body):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path != "/wallets/w1":
            return self.answer(404, "{}")
        with connect() as connection:
            (balance,) = connection.execute(
                "SELECT balance FROM wallets WHERE id = 'w1'"
            ).fetchone()
        self.answer(200, compact({"balance": balance}))

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        connection = connect()
        try:
            if self.path == "/reset":
                connection.execute("UPDATE wallets SET balance = 0")
                connection.execute("DELETE FROM idempotency_keys")
                return self.answer(200, "{}")
            if self.path != "/top-ups":
                return self.answer(404, "{}")
            amount = int(json.loads(body).get("amount", 0))
            key = self.headers.get("Idempotency-Key")
            if MODE == "naive":
                return self.answer(*top_up(connection, amount))
            if not key:
                return self.answer(400, compact({"title": "Idempotency-Key is missing"}))
            self.answer(*idempotent_top_up(connection, key, body, amount))
        finally:
            connection.close()

    def log_message(self, format, *args):
        pass


class Server(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A client that hangs up before the answer is not the service's error.
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


if __name__ == "__main__":
    create_schema()
    server = Server(("127.0.0.1", PORT), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()
