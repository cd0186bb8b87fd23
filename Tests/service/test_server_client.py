"""`shop --server URL`: the REPL's commands against a running `shop serve`, with the same output
as against a file, and writes that survive dropped connections (retried with their transaction
ID, applied once), through a fault-injecting proxy on loopback."""

import json
import os
import pathlib
import random
import select
import socketserver
import subprocess
import tempfile
import threading
import time

import httpx
import pytest

from conftest import ROOT, SHOP, add_user, create_token, own_server, shop
from fault_proxy import FaultProxy, header
from tls_proxy import TLSProxy

GROCERIES = ROOT / "Scripts" / "examples" / "groceries.shop"
STATE = "{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: ASC}]) { name number } } }"
LIST_NAMES = "{ Lists(sort: [{name: ASC}]) { name } }"
LIST_ITEMS = "{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: ASC}]) { name } } }"


def run_shop(*arguments, env=None, input=None, timeout=120, cwd=None):
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SHOP_")}
    environment.update(env or {})
    return subprocess.run([SHOP, *arguments], capture_output=True, text=True, timeout=timeout, env=environment, input=input, cwd=cwd)


def remote(server, *arguments, url=None, env=None, **options):
    return run_shop("--server", url or server.url, "--token", server.token, *arguments, env=env, **options)


def server_state(server, query=STATE):
    response = httpx.post(f"{server.url}/graphql", json={"query": query}, headers={"Authorization": f"Bearer {server.token}"}, timeout=30)
    assert response.status_code == 200, response.text
    body = response.json()
    assert "errors" not in body, body
    return body["data"]


def proxy_to(server, decide):
    host, port = server.url.removeprefix("http://").split(":")
    return FaultProxy(host, int(port), decide)


def fault_first_write(kind):
    """A policy that faults the first request carrying an Idempotency-Key and passes the rest."""
    seen = {"faulted": False}

    def decide(request, connection):
        if header(request, "Idempotency-Key") and not seen["faulted"]:
            seen["faulted"] = True
            return kind
        return "pass"
    return decide


def test_the_groceries_story_prints_the_same_through_a_server_and_leaves_the_same_data(fresh_server, tmp_path):
    local_db = tmp_path / "local.sqlite"
    local = run_shop("--db", str(local_db), "-f", str(GROCERIES))
    served = remote(fresh_server, "-f", str(GROCERIES))
    assert local.returncode == 0, local.stderr
    assert served.returncode == 0, served.stderr
    assert served.stdout == local.stdout
    assert served.stderr == local.stderr == ""
    local_state = run_shop("--db", str(local_db), "--json", "-e", STATE)
    assert json.loads(local_state.stdout)["data"] == server_state(fresh_server)
    assert remote(fresh_server, "-e", "schema").stdout == run_shop("--db", str(local_db), "-e", "schema").stdout


def test_json_and_error_lines_match_a_file(fresh_server, tmp_path):
    commands = ["list add Groceries", "item add Groceries Milk", "item add Groceries Milk", "items Nowhere",
                "item set Groceries Milk colour=red", "list delete Nowhere", "count Items", "lists",
                "{ Lists { name } }", "item show Groceries Milk"]
    arguments = ["--json", "--keep-going"] + [word for command in commands for word in ("-e", command)]
    local = run_shop("--db", str(tmp_path / "l.sqlite"), *arguments)
    served = remote(fresh_server, *arguments)
    assert served.returncode == local.returncode == 1
    assert served.stderr == local.stderr

    def without_system_fields(value):
        if isinstance(value, dict):
            return {k: without_system_fields(v) for k, v in value.items() if k not in ("recordName", "createdAt", "modifiedAt", "changeTag")}
        if isinstance(value, list):
            return [without_system_fields(v) for v in value]
        return value

    def documents(text):
        return [without_system_fields(json.loads(line)) for line in text.splitlines()]
    assert documents(served.stdout) == documents(local.stdout)


def test_the_list_and_item_commands_still_match_a_file_once_items_reference_lists_twice(fresh_server, tmp_path):
    # A second reference from Items to Lists renames the referrers field `Items` to `Items_list`.
    setup = ["list add A", "item add A milk", "schema add-field Items owner 'REFERENCE(Lists)'"]
    commands = ["lists", "item show A milk", "item set A milk owner=A", "item add A eggs", "items A", "item delete A milk", "lists"]
    local_db = str(tmp_path / "l.sqlite")
    for command in setup:
        assert run_shop("--db", local_db, "-e", command).returncode == 0
        assert remote(fresh_server, "-e", command).returncode == 0
    for command in commands:
        local = run_shop("--db", local_db, "-e", command)
        served = remote(fresh_server, "-e", command)
        assert served.returncode == local.returncode == 0, (command, served.stderr, local.stderr)
        assert served.stderr == local.stderr == ""
        if command != "item show A milk":  # it shows recordNames and times, which differ
            assert served.stdout == local.stdout, command


def test_a_bad_sort_or_predicate_says_through_a_server_what_it_says_on_a_file(fresh_server, tmp_path):
    local_db = str(tmp_path / "l.sqlite")
    for command in ("list add L", "schema add-field Items number INT64"):
        assert run_shop("--db", local_db, "-e", command).returncode == 0
        assert remote(fresh_server, "-e", command).returncode == 0
    for command in ("items L --sort nope", "items L --where 'bogus == 1'", "count Items --where 'name == 1'", "items L --where 'number >'"):
        local = run_shop("--db", local_db, "-e", command)
        served = remote(fresh_server, "-e", command)
        assert served.returncode == local.returncode == 1, command
        assert served.stderr == local.stderr, (command, served.stderr, local.stderr)


def test_a_schema_import_that_cannot_apply_says_through_a_server_what_it_says_on_a_file(fresh_server, tmp_path):
    retype = tmp_path / "retype.ckdb"
    retype.write_text("DEFINE SCHEMA\n    RECORD TYPE Items (\n        name INT64\n    );\n")
    broken = tmp_path / "broken.ckdb"
    broken.write_text("DEFINE SCHEMA RECORD TYPE (\n")
    local_db = str(tmp_path / "l.sqlite")
    for path in (retype, broken):
        local = run_shop("--db", local_db, "-e", f"schema import {path}")
        served = remote(fresh_server, "-e", f"schema import {path}")
        assert served.returncode == local.returncode == 1
        assert served.stderr == local.stderr, (served.stderr, local.stderr)


def test_a_mutation_naming_its_transaction_is_applied_once_and_replayed_as_on_a_file(fresh_server, tmp_path):
    mutation = 'mutation @transaction(id: "k1") { createLists(fields: {name: "K1"}) { name } }'
    local_db = str(tmp_path / "l.sqlite")
    for _ in range(2):
        local = run_shop("--db", local_db, "-e", mutation)
        served = remote(fresh_server, "-e", mutation)
        assert served.returncode == local.returncode == 0, (served.stderr, local.stderr)
        assert served.stdout == local.stdout
    assert server_state(fresh_server, LIST_NAMES) == {"Lists": [{"name": "K1"}]}
    assert "k1" in remote(fresh_server, "-e", "transactions").stdout
    for command in ("transaction show nosuch", "transaction delete nosuch"):
        local = run_shop("--db", local_db, "-e", command)
        served = remote(fresh_server, "-e", command)
        assert served.returncode == local.returncode == 1
        assert served.stderr == local.stderr, (served.stderr, local.stderr)


@pytest.mark.parametrize("kind, account", [
    ("drop_after", "the server had applied the write once already; its stored result follows"),
    ("drop_before", "the server applied the write on attempt 2 (the earlier attempts never reached it)"),
    ("stall", "the server had applied the write once already; its stored result follows"),
    ("bad_gateway_after", "the server had applied the write once already; its stored result follows"),
])
def test_a_faulted_write_is_retried_with_its_transaction_id_and_applied_once(fresh_server, kind, account):
    proxy = proxy_to(fresh_server, fault_first_write(kind))
    try:
        run = remote(fresh_server, "-e", "list add Groceries", "-e", "lists", url=proxy.url, env={"SHOP_SERVER_TIMEOUT": "1.5"})
    finally:
        proxy.close()
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("added list Groceries\n")
    assert run.stdout.count("Groceries") == 2
    assert "retrying in" in run.stderr and "with the same transaction ID" in run.stderr
    assert account in run.stderr
    assert len(proxy.faults(kind)) == 1
    assert server_state(fresh_server, LIST_NAMES)["Lists"] == [{"name": "Groceries"}]


def test_ctrl_c_while_a_scripts_write_waits_for_its_answer_abandons_it_at_once(fresh_server):
    """The answer never comes (the proxy stalls it) and the request timeout is long: SIGINT
    cancels the request under way, the script stops with 130 and names the transaction to check."""
    proxy = proxy_to(fresh_server, fault_first_write("stall"))
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SHOP_")}
    environment["SHOP_SERVER_TIMEOUT"] = "60"
    try:
        child = subprocess.Popen([SHOP, "--server", proxy.url, "--token", fresh_server.token, "-e", "list add Groceries", "-e", "lists"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        deadline = time.monotonic() + 30
        while not proxy.faults("stall") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert proxy.faults("stall"), "the write never reached the proxy"
        time.sleep(0.2)
        started = time.monotonic()
        child.send_signal(2)
        stdout, stderr = child.communicate(timeout=30)
        waited = time.monotonic() - started
    finally:
        proxy.close()
    assert child.returncode == 130, stderr
    assert waited < 10, f"the interrupted request took {waited:.1f} s to stop"
    assert stdout == ""
    assert "interrupted: the write to" in stderr and "it may have been applied: check with: transaction show" in stderr
    # The stalled attempt reached the server, which applied it once.
    assert server_state(fresh_server, LIST_NAMES)["Lists"] == [{"name": "Groceries"}]


def test_200_random_commands_through_a_proxy_dropping_30_percent_of_connections_match_a_model(fresh_server):
    rng = random.Random(13)
    plans = {}

    def decide(request, connection):
        # Each connection carries a few requests; 30% of them end by dropping one (before or
        # after the server saw it), the others by closing cleanly after an answer.
        if connection not in plans:
            plans[connection] = [rng.randrange(6), rng.choice(["drop_before", "drop_after"]) if rng.random() < 0.3 else "pass_close"]
        plan = plans[connection]
        if plan[0] == 0:
            return plan[1]
        plan[0] -= 1
        return "pass"

    model, commands = {}, []
    for round_number in range(200):
        lists = sorted(model)
        choice = rng.random()
        if not lists or choice < 0.15:
            name = f"L{round_number}"
            model[name] = {}
            commands.append(f"list add {name}")
        elif choice < 0.2 and len(lists) > 2:
            name = rng.choice(lists)
            del model[name]
            commands.append(f"list delete {name}")
        elif choice < 0.25:
            name, new = rng.choice(lists), f"R{round_number}"
            model[new] = model.pop(name)
            commands.append(f"list rename {name} {new}")
        else:
            name = rng.choice(lists)
            items = model[name]
            if items and choice < 0.45:
                item = rng.choice(sorted(items))
                del items[item]
                commands.append(f"item delete {name} {item}")
            elif items and choice < 0.7:
                item, number = rng.choice(sorted(items)), rng.randrange(1, 9)
                items[item] = number
                commands.append(f"item set {name} {item} number={number}")
            else:
                item = f"I{round_number}"
                items[item] = None
                commands.append(f"item add {name} {item}")
    assert remote(fresh_server, "-e", "schema add-field Items number INT64").returncode == 0
    proxy = proxy_to(fresh_server, decide)
    started = time.monotonic()
    try:
        run = remote(fresh_server, url=proxy.url, input="\n".join(commands) + "\n", timeout=120)
    finally:
        proxy.close()
    assert run.returncode == 0, run.stderr[-2000:]
    assert time.monotonic() - started < 60
    assert len(run.stdout.splitlines()) == 200
    assert proxy.faults("drop_before") and proxy.faults("drop_after")
    expected = [{"name": name, "Items": [{"name": item, "number": number} for item, number in sorted(items.items())]}
                for name, items in sorted(model.items())]
    assert server_state(fresh_server)["Lists"] == expected


def test_an_unreachable_server_is_a_clear_error_naming_the_url():
    run = run_shop("--server", "http://127.0.0.1:9", "-e", "lists")
    assert run.returncode == 1
    assert run.stderr.startswith("error: internalError: cannot reach the server at http://127.0.0.1:9")
    assert "shop serve is running there" in run.stderr
    # With --json, a program reads the failure on standard output too.
    as_json = run_shop("--server", "http://127.0.0.1:9", "--json", "-e", "lists")
    assert as_json.returncode == 1
    assert "cannot reach the server" in json.loads(as_json.stdout)["errors"][0]["message"]


def test_a_url_with_a_path_says_that_shop_serve_answers_at_its_root(fresh_server):
    run = remote(fresh_server, "-e", "lists", url=fresh_server.url + "/shop")
    assert run.returncode == 1
    assert run.stderr.startswith(f"error: invalidArguments: the server at {fresh_server.url}/shop has no {fresh_server.url}/shop/database/")
    assert run.stderr.endswith("shop serve answers at its root: give the address it prints, e.g. http://127.0.0.1:8080, without a path\n")
    # A slash after the address is no path.
    assert remote(fresh_server, "-e", "lists", url=fresh_server.url + "/").returncode == 0


def test_a_server_serving_another_container_is_found_through_its_health():
    # `shop serve --container NAME` answers only URLs naming NAME; /health says which it is.
    with own_server("--container", "iCloud.com.example.shop") as server:
        assert httpx.get(f"{server.url}/health", timeout=30).json() == {"status": "ok", "container": "iCloud.com.example.shop"}
        run = remote(server, "-e", "list add Groceries", "-e", "item add Groceries Milk", "-e", "items Groceries")
        assert run.returncode == 0, run.stderr
        assert run.stdout == "added list Groceries\nadded Milk to Groceries\nitem  list\nMilk  Groceries\n"
        assert server_state(server, LIST_ITEMS) == {"Lists": [{"name": "Groceries", "Items": [{"name": "Milk"}]}]}


def test_a_refused_credential_is_a_clear_error_that_does_not_echo_the_token(fresh_server):
    wrong = "0" * 64
    run = run_shop("--server", fresh_server.url, "--token", wrong, "-e", "lists")
    assert run.returncode == 1
    assert f"the server at {fresh_server.url} refused the credential" in run.stderr
    assert wrong not in run.stderr + run.stdout


def test_the_token_comes_from_the_environment_or_the_token_file(fresh_server, tmp_path):
    assert run_shop("-e", "list add A", env={"SHOP_SERVER": fresh_server.url, "SHOP_TOKEN": fresh_server.token}).returncode == 0
    (tmp_path / "shop").mkdir()
    (tmp_path / "shop" / "token").write_text(fresh_server.token + "\n")
    run = run_shop("--server", fresh_server.url, "-e", "lists", env={"XDG_CONFIG_HOME": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    assert "A" in run.stdout


def test_exhausted_retries_end_with_an_error_naming_the_transaction(fresh_server):
    assert remote(fresh_server, "-e", "lists").returncode == 0
    proxy = proxy_to(fresh_server, lambda request, connection: "drop_before" if header(request, "Idempotency-Key") else "pass")
    try:
        run = remote(fresh_server, "-e", "list add Never", url=proxy.url, env={"SHOP_SERVER_RETRY": "1.5"})
    finally:
        proxy.close()
    assert run.returncode == 1
    assert "gave up after" in run.stderr and proxy.url in run.stderr and "transaction show" in run.stderr
    assert server_state(fresh_server, LIST_NAMES)["Lists"] == []


def test_the_repl_through_a_server_completes_list_names_and_ctrl_c_abandons_a_retry(fresh_server, tmp_path):
    import pexpect

    assert remote(fresh_server, "-e", "list add 'Corner shop'", "-e", "list add Groceries").returncode == 0
    mode = {"fault": "pass"}
    proxy = proxy_to(fresh_server, lambda request, connection: mode["fault"] if header(request, "Idempotency-Key") else "pass")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHOP_")}
    env.update(HOME=str(tmp_path), TERM="xterm", LANG="C.UTF-8", PAGER="")
    child = pexpect.spawn(SHOP, ["--server", proxy.url, "--token", fresh_server.token, "--no-pager"],
                          env=env, encoding="utf-8", timeout=30, dimensions=(40, 200))
    try:
        child.expect_exact(f"shop: {proxy.url}")
        child.expect_exact("shop> ")
        # Tab completes a list name the server knows.
        child.send("items Gro\t")
        child.expect_exact("ceries ")
        child.send("\r")
        child.expect_exact("no items in Groceries")
        child.expect_exact("shop> ")
        # A write whose connections keep dropping is retried, visibly, until Ctrl-C abandons it.
        mode["fault"] = "drop_before"
        child.send("list add Never\r")
        child.expect("retrying in .* with the same transaction ID")
        child.send("\x03")
        child.expect("interrupted: the write to .* was abandoned; it may have been applied: check with: transaction show")
        child.expect_exact("cancelled (Ctrl-C)")
        child.expect_exact("shop> ")
        mode["fault"] = "pass"
        child.send("lists\r")
        child.expect(r"Groceries\s+0")
        child.expect_exact("shop> ")
        child.send("quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
        proxy.close()
    assert child.exitstatus == 0
    assert [entry["name"] for entry in server_state(fresh_server, LIST_NAMES)["Lists"]] == ["Corner shop", "Groceries"]


THINGS_SCHEMA = """DEFINE SCHEMA
    RECORD TYPE Things (
        text        STRING QUERYABLE SORTABLE,
        count       INT64 QUERYABLE,
        ratio       DOUBLE,
        amount      NUMBER,
        at          TIMESTAMP,
        blob        BYTES,
        place       LOCATION,
        file        ASSET,
        owner       REFERENCE,
        tags        LIST<STRING>,
        counts      LIST<INT64>,
        times       LIST<TIMESTAMP>,
        places      LIST<LOCATION>,
        owners      LIST<REFERENCE>
    );
"""

# Every field type (a location with what a device measured beside its coordinates), the texts CSV must quote, a reference to a record that does not exist (kept
# as it is, with its action), an asset's content, and a record with no values.
THINGS = [
    {"recordName": "A", "text": "He said \"hi\", then\nleft;\r\nCafé ☕ 𝄞 e\u0301", "count": -9223372036854775808, "ratio": 0.1,
     "amount": -1.5e300, "at": "2024-11-19T07:06:40.123Z", "blob": "AAEC/ywiCg==", "place": {"latitude": 52.5200066, "longitude": -13.404954,
                                                                                                  "altitude": 34.5, "timestamp": "2024-11-19T07:06:40.123Z"},
     "file": "YXNzZXQsICJjb250ZW50Igo=", "owner": {"recordName": "B", "action": "NONE"}, "tags": ["a,b", "\"q\"", ""],
     "counts": [9007199254740991, 0], "times": ["1970-01-01T00:00:00.000Z"], "places": [{"latitude": -90, "longitude": 180, "course": 90.5}],
     "owners": [{"recordName": "gone", "action": "NONE"}]},
    {"recordName": "B", "text": "", "tags": [], "ratio": 2.0, "amount": 7, "owner": {"recordName": "A", "action": "DELETE_SELF"}},
    {"recordName": "C,\"odd\" name ✓"},
]

LISTS_CSV = "recordName,name\nL1,Groceries\nL2,Hardware store\n"
ITEMS_CSV = "".join(["recordName,name,list\n"] + [
    f'I{n},{name},"{{""recordName"":""{lst}"",""action"":""DELETE_SELF""}}"\n'
    for n, (name, lst) in enumerate([("Milk", "L1"), ("Mangoes", "L1"), ("Bread", "L1"), ("Nails", "L2"), ("Glue", "L2")]
                                    + [(f"Screw {n}", "L2") for n in range(450)])])  # exports span pages
# Line 3 names a list that does not exist (the server refuses it); line 2 of the other a field
# that does not exist (the client refuses it before sending).
BAD_ITEMS_CSV = 'recordName,name,list\nX1,Tea,"{""recordName"":""L1"",""action"":""DELETE_SELF""}"\nX2,Stray,"{""recordName"":""L9"",""action"":""DELETE_SELF""}"\n'
BAD_FIELD_CSV = "name,colour\nTea,green\n"

TRANSFER_SCRIPT = """schema import things.ckdb
import Lists lists.csv
import Items items.csv
import Things things.jsonl
import Items bad-items.csv
import Items bad-field.csv
count Items
export Items
export Items --where "name BEGINSWITH 'M'" --format jsonl
export Things --format jsonl
export Things
export Things out.jsonl
export Lists out.csv
explain items Groceries --sort name desc
explain { Items(predicate: "name BEGINSWITH 'M'", sort: [{name: DESC}]) { name list { name } } }
explain { Items { colour } }
lists
"""


def transfer_folder(path):
    path.mkdir()
    (path / "things.ckdb").write_text(THINGS_SCHEMA)
    (path / "lists.csv").write_text(LISTS_CSV)
    (path / "items.csv").write_text(ITEMS_CSV)
    (path / "bad-items.csv").write_text(BAD_ITEMS_CSV)
    (path / "bad-field.csv").write_text(BAD_FIELD_CSV)
    (path / "things.jsonl").write_text("".join(json.dumps(thing, ensure_ascii=False) + "\n" for thing in THINGS))
    (path / "script.shop").write_text(TRANSFER_SCRIPT)
    return path


def test_import_export_and_explain_through_a_server_print_and_store_what_a_file_does(fresh_server, tmp_path):
    here, there = transfer_folder(tmp_path / "local"), transfer_folder(tmp_path / "served")
    local = run_shop("--db", str(here / "local.sqlite"), "--keep-going", "-f", "script.shop", cwd=here)
    served = remote(fresh_server, "--keep-going", "-f", "script.shop", cwd=there)
    assert local.returncode == served.returncode == 1
    # The same lines, error lines included: a bad row names its line whether the client or the
    # server refused it.
    assert served.stdout == local.stdout, served.stderr
    assert served.stderr == local.stderr
    assert "script.shop:5: error: referenceViolation: bad-items.csv:3: " in local.stderr
    assert "script.shop:6: error: invalidArguments: bad-field.csv:1: Items has no field 'colour'" in local.stderr
    assert "imported 3 Things records from things.jsonl" in local.stdout
    assert "SQL: SELECT" in local.stdout
    # The files written are byte for byte the same.
    for name in ("out.jsonl", "out.csv"):
        assert (there / name).read_bytes() == (here / name).read_bytes()
    # A failed import changed nothing: the server holds what the file holds.
    names = "{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: ASC}]) { name } } Things(sort: [{text: ASC}]) { text } }"
    local_state = run_shop("--db", str(here / "local.sqlite"), "--json", "-e", names)
    assert json.loads(local_state.stdout)["data"] == server_state(fresh_server, names)
    exported = [json.loads(line) for line in (there / "out.jsonl").read_text().splitlines()]
    assert [thing["recordName"] for thing in exported] == sorted(thing["recordName"] for thing in THINGS)
    # What GraphQL would resolve away is exported as stored: a reference's action, a reference
    # to a record that is gone, an asset's content.
    assert exported[0]["owners"] == [{"recordName": "gone", "action": "NONE"}]
    assert exported[1]["owner"] == {"recordName": "A", "action": "DELETE_SELF"}
    assert exported[0]["file"] == THINGS[0]["file"]
    # A location keeps what was measured beside its coordinates, through the server as in a file.
    assert exported[0]["place"] == THINGS[0]["place"] and exported[0]["places"] == THINGS[0]["places"]


def test_an_import_past_the_servers_body_limit_says_how_to_send_it(fresh_server, tmp_path):
    # 9,000 rows of 1 KB: fewer than the 10,000 records a request may create, more than the
    # 8 MiB a request body may hold. The client says what to do, as for too many rows.
    assert remote(fresh_server, "-e", "list add Large").returncode == 0
    rows = "".join(f"item {n:04} {'z' * 1000}\n" for n in range(9_000))
    (tmp_path / "large.csv").write_text("name\n" + rows)
    run = remote(fresh_server, "-e", "import Items large.csv", cwd=tmp_path)
    assert run.returncode == 1
    assert run.stderr.startswith(f"error: limitExceeded: the server at {fresh_server.url} takes no request this large (the request body is ")
    assert "split an import's file into smaller files, or import on the server's machine with --db" in run.stderr
    assert server_state(fresh_server, "{ ItemsAggregate { count } }") == {"ItemsAggregate": {"count": 0}}


@pytest.mark.parametrize("kind", ["drop_after", "drop_before"])
def test_an_import_whose_connection_drops_is_retried_with_its_transaction_id_and_applied_once(fresh_server, tmp_path, kind):
    rows = 300
    (tmp_path / "lists.csv").write_text("name\n" + "".join(f"List {n}\n" for n in range(rows)))
    proxy = proxy_to(fresh_server, fault_first_write(kind))
    try:
        run = remote(fresh_server, "-e", "import Lists lists.csv", url=proxy.url, env={"SHOP_SERVER_TIMEOUT": "5"}, cwd=tmp_path)
    finally:
        proxy.close()
    assert run.returncode == 0, run.stderr
    assert run.stdout == f"imported {rows} Lists records from lists.csv\n"
    assert "retrying in" in run.stderr and "with the same transaction ID" in run.stderr
    assert len(proxy.faults(kind)) == 1
    names = [entry["name"] for entry in server_state(fresh_server, LIST_NAMES)["Lists"]]
    assert sorted(names) == sorted(f"List {n}" for n in range(rows))


def test_explain_through_a_server_needs_an_admin_token(fresh_server):
    api = create_token(fresh_server.data, "--api", label="reader")
    run = run_shop("--server", fresh_server.url, "--token", api, "-e", "explain { Lists { name } }")
    assert run.returncode == 1
    assert "does not let this token do that" in run.stderr and "needs an admin token" in run.stderr
    assert "SELECT" not in run.stdout + run.stderr


def test_one_transaction_for_a_whole_script_is_refused_through_a_server_saying_why(fresh_server):
    run = remote(fresh_server, "-1", "-e", "list add A", "-e", "list add B")
    assert run.returncode == 1
    assert "-1 keeps one transaction of a database file open for the whole script" in run.stderr
    assert "--db" in run.stderr
    assert server_state(fresh_server, LIST_NAMES)["Lists"] == []


def test_a_users_private_database_through_a_server_is_theirs_alone(fresh_server, tmp_path):
    for user in ("ann", "bob"):
        add_user(fresh_server.data, user, "a long enough password")
    ann = create_token(fresh_server.data, "--user", "ann", label="ann")
    bob = create_token(fresh_server.data, "--user", "bob", label="bob")

    def private(token, *arguments):
        return run_shop("--server", fresh_server.url, "--token", token, "--database", "private", *arguments, cwd=tmp_path)

    run = private(ann, "-e", "list add Mine", "-e", "item add Mine Milk", "-e", "lists", "-e", "items Mine", "-e", "export Lists")
    local = run_shop("--db", str(tmp_path / "ann.sqlite"), "-e", "list add Mine", "-e", "item add Mine Milk", "-e", "lists", "-e", "items Mine")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(local.stdout)
    assert run.stdout[len(local.stdout):].startswith("recordName,name\n") and run.stdout.endswith(",Mine\n")
    # Bob's private database and the public one hold nothing of Ann's.
    assert private(bob, "-e", "lists").stdout == run_shop("--db", str(tmp_path / "empty.sqlite"), "-e", "lists").stdout
    assert server_state(fresh_server, LIST_NAMES)["Lists"] == []
    answer = httpx.post(f"{fresh_server.database_url(database='private')}/graphql", json={"query": LIST_NAMES},
                        headers={"Authorization": f"Bearer {ann}"}, timeout=30)
    assert answer.json()["data"]["Lists"] == [{"name": "Mine"}]


class Session:
    """One `shop --server` process fed a command at a time through pipes, as a user types them."""

    def __init__(self, server):
        environment = {k: v for k, v in os.environ.items() if not k.startswith("SHOP_")}
        self.process = subprocess.Popen(
            [SHOP, "--server", server.url, "--token", server.token, "--keep-going"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1, env=environment)

    def said(self, command):
        """The line the command printed first, on stdout or (prefixed `error> `) on stderr."""
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout, self.process.stderr], [], [], 30)
        assert ready, f"'{command}' printed nothing in 30 s"
        line = ready[0].readline().rstrip("\n")
        return line if ready[0] is self.process.stdout else "error> " + line

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def test_an_item_command_after_another_client_renamed_its_list_acts_on_the_list_named_now(fresh_server):
    """The REPL remembers the lists and items it saw, so an item command is one request; a write
    worked out from a list that another client renamed meanwhile is refused by its change tag, and
    one that took a name to be free is refused by the schema's UNIQUE rule; the command then runs
    again on fresh look-ups, printing what it would print on a file."""
    session = Session(fresh_server)
    try:
        assert session.said("schema add-field Items number INT64") == "added field Items.number INT64"
        assert session.said("list add Weekly") == "added list Weekly"
        assert session.said("item add Weekly milk") == "added milk to Weekly"
        # Another client renames the list and makes a new one under the old name.
        headers = {"Authorization": f"Bearer {fresh_server.token}"}
        weekly = server_state(fresh_server, '{ Lists(where: {name: {eq: "Weekly"}}) { recordName changeTag } }')["Lists"][0]
        renamed = httpx.post(
            f"{fresh_server.url}/graphql", headers=headers, timeout=30,
            json={"query": 'mutation($r: ID!) { updateLists(recordName: $r, fields: {name: "Monthly"}) { name } '
                           'createLists(fields: {name: "Weekly"}) { name } }', "variables": {"r": weekly["recordName"]}})
        assert renamed.status_code == 200 and "errors" not in renamed.json(), renamed.text

        assert session.said("item add Weekly eggs") == "added eggs to Weekly"
        assert session.said("item set Weekly milk number=2") == (
            "error> <stdin>:5: error: unknownItem: list 'Weekly' has no item named 'milk'; see its items with: items Weekly")
        assert session.said("item set Monthly milk number=3") == "updated milk in Monthly"
        # A name the REPL has not seen is taken to be free; the server's UNIQUE (name) says otherwise.
        assert session.said("list add Monthly") == (
            "error> <stdin>:7: error: schemaViolation: there is already a list named 'Monthly'; list names are unique, choose another one")
        # Another client renames an item the REPL remembers: deleting it by its old name finds nothing.
        eggs = server_state(fresh_server, '{ Items(where: {name: {eq: "eggs"}}) { recordName } }')["Items"][0]
        renamed = httpx.post(
            f"{fresh_server.url}/graphql", headers=headers, timeout=30,
            json={"query": 'mutation($r: ID!) { updateItems(recordName: $r, fields: {name: "free-range eggs"}) { name } }',
                  "variables": {"r": eggs["recordName"]}})
        assert renamed.status_code == 200 and "errors" not in renamed.json(), renamed.text
        assert session.said("item delete Weekly eggs") == (
            "error> <stdin>:8: error: unknownItem: list 'Weekly' has no item named 'eggs'; see its items with: items Weekly")
        assert session.said("item delete Weekly 'free-range eggs'") == "deleted 'free-range eggs' from Weekly"
    finally:
        session.close()
    assert server_state(fresh_server) == {"Lists": [
        {"name": "Monthly", "Items": [{"name": "milk", "number": 3}]},
        {"name": "Weekly", "Items": []},
    ]}


def test_a_guarded_write_with_a_stale_change_tag_changes_nothing(fresh_server):
    """requireUnchanged, as any GraphQL client may send it: the mutation's writes apply only while
    each record named still has the change tag given."""
    headers = {"Authorization": f"Bearer {fresh_server.token}"}

    def post(query, variables=None):
        return httpx.post(f"{fresh_server.url}/graphql", headers=headers, timeout=30, json={"query": query, "variables": variables or {}}).json()

    created = post('mutation { createLists(fields: {name: "Hardware"}) { recordName changeTag } }')["data"]["createLists"]
    guarded = ('mutation($v: [RecordVersionInput!]!, $l: ID!) { checked: requireUnchanged(records: $v) '
               'createItems(fields: {name: "nails", list: {recordName: $l, action: DELETE_SELF}}) { name } }')
    fresh = post(guarded, {"v": [created], "l": created["recordName"]})
    assert fresh["data"] == {"checked": [created["recordName"]], "createItems": {"name": "nails"}}

    post('mutation($r: ID!) { updateLists(recordName: $r, fields: {name: "Tools"}) { name } }', {"r": created["recordName"]})
    stale = post(guarded.replace('"nails"', '"screws"'), {"v": [created], "l": created["recordName"]})
    assert stale["data"] is None
    assert stale["errors"][0]["extensions"]["code"] == "serverRecordChanged"
    assert stale["errors"][0]["path"] == ["checked"]
    assert server_state(fresh_server, LIST_ITEMS)["Lists"] == [{"name": "Tools", "Items": [{"name": "nails"}]}]


def test_the_client_asks_for_gzip_and_prints_a_compressed_listing_as_a_file_does(fresh_server, tmp_path):
    asked = []
    proxy = proxy_to(fresh_server, lambda request, connection: asked.append(header(request, "Accept-Encoding")) or "pass")
    commands = ["-e", "list add Big", *[arg for n in range(40) for arg in ("-e", f"item add Big 'thing {n:02}'")], "-e", "items Big"]
    try:
        served = remote(fresh_server, *commands, url=proxy.url)
    finally:
        proxy.close()
    local = run_shop("--db", str(tmp_path / "local.sqlite"), *commands)
    assert served.returncode == 0, served.stderr
    assert served.stdout == local.stdout and served.stdout.count("\nthing ") == 40
    assert asked and set(asked) == {"gzip"}
    # The listing's answer is past the size the server compresses from.
    listing = httpx.post(fresh_server.url + "/graphql", headers={"Authorization": f"Bearer {fresh_server.token}", "Accept-Encoding": "gzip"},
                         json={"query": "{ Items(sort: [{name: ASC}]) { recordName name list { recordName } } }"})
    assert listing.headers.get("content-encoding") == "gzip"


def test_lists_and_items_past_the_servers_response_limit_print_what_a_file_prints(fresh_server, tmp_path):
    """A server answers at most 10,000 records at once: `lists` and `items LIST` page through
    more, as a file lists them all."""
    # Imported in two parts each: through a server one import is one request of at most 10,000.
    commands = []
    for part, numbers in enumerate((range(0, 5_000), range(5_000, 10_001))):
        lists, items = tmp_path / f"lists{part}.jsonl", tmp_path / f"items{part}.jsonl"
        lists.write_text("".join(json.dumps({"recordName": f"L{n:05}", "name": f"List {n:05}"}) + "\n" for n in numbers))
        items.write_text("".join(
            json.dumps({"name": f"Item {n:05}", "list": {"recordName": "L00000", "action": "DELETE_SELF"}}) + "\n" for n in numbers))
        commands += ["-e", f"import Lists {lists}", "-e", f"import Items {items}"]
    commands += ["-e", "lists", "-e", "items 'List 00000'"]
    local = run_shop("--db", str(tmp_path / "local.sqlite"), *commands)
    served = remote(fresh_server, *commands)
    assert local.returncode == 0, local.stderr
    assert served.returncode == 0, served.stderr
    assert served.stdout == local.stdout
    assert served.stdout.count("\nList ") == 10_001 and served.stdout.count("\nItem ") == 10_001


def test_an_asset_field_set_through_a_server_stores_the_files_content_as_on_a_file(fresh_server, tmp_path):
    photo = tmp_path / "photo.txt"
    photo.write_text("hello\n")
    commands = ["-e", "list add Groceries", "-e", "schema add-field Items pic ASSET", "-e", "schema add-field Items pics 'LIST<ASSET>'",
                "-e", "item add Groceries Milk", "-e", f"item set Groceries Milk pic={photo}", "-e", f"item add Groceries Eggs pic={photo}",
                "-e", f"item set Groceries Eggs pics={photo},{photo}", "-e", "schema add-field Items number INT64",
                "-e", "item set Groceries Eggs number=3", "-e", "{ Items(sort: [{name: ASC}]) { name pic { size sha256 } pics { size } number } }"]
    local = run_shop("--db", str(tmp_path / "local.sqlite"), "--json", *commands)
    served = remote(fresh_server, "--json", *commands)
    assert local.returncode == 0, local.stderr
    assert served.returncode == 0, served.stderr
    assert served.stdout == local.stdout
    assert '"pic":{"size":6,"sha256":"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"}' in served.stdout


def test_a_name_longer_than_a_predicate_works_through_a_server_as_on_a_file(fresh_server, tmp_path):
    """Look-ups by name go out as where: filters with the name in a variable, so a name past a
    predicate's 10,000 characters is found as on a file."""
    name = "L" * 20_000
    commands = ["-e", f"list add {name}", "-e", f"item add {name} Milk", "-e", f"item set {name} Milk name=Oat", "-e", f"items {name}",
                "-e", f"item delete {name} Oat", "-e", f"list delete {name}", "-e", "lists"]
    local = run_shop("--db", str(tmp_path / "local.sqlite"), *commands)
    served = remote(fresh_server, *commands)
    assert local.returncode == 0, local.stderr[:500]
    assert served.returncode == 0, served.stderr[:500]
    assert served.stdout == local.stdout


def test_a_reference_to_a_deleted_record_shows_its_recordname_through_a_server_as_on_a_file(fresh_server, tmp_path):
    """GraphQL resolves a reference whose record is gone to null; the client reads such a record
    again as stored, so `items` shows the recordName it still holds, in a REFERENCE and inside a
    LIST<REFERENCE>, as on a file."""
    setup = ["list add Home", "list add Work", 'mutation { createLists(recordName: "gone-list", fields: {name: "Gone"}) { name } }',
             "schema add-field Items other REFERENCE", "schema add-field Items others 'LIST<REFERENCE>'",
             "item add Home Milk", "item add Home Eggs", "item set Home Milk other=gone-list"]
    commands = [["-e", "items Home"], ["-e", "list delete Gone"], ["-e", "items Home"], ["--json", "-e", "items Home"],
                ["-e", "item set Home Milk name=Oat"], ["-e", "items Home"]]
    local_db = str(tmp_path / "l.sqlite")
    for command in setup:
        assert run_shop("--db", local_db, "-e", command).returncode == 0, command
        assert remote(fresh_server, "-e", command).returncode == 0, command
    work_query = '{ Lists(where: {name: {eq: "Work"}}) { recordName } }'
    for run in (lambda *a: run_shop("--db", local_db, *a), lambda *a: remote(fresh_server, *a)):
        found = run("--json", "-e", work_query)
        assert found.returncode == 0, found.stderr
        work = json.loads(found.stdout)["data"]["Lists"][0]["recordName"]
        assert run("-e", "item set Home Milk others='[\"" + work + "\",\"gone-list\"]'").returncode == 0
    for command in commands:
        local = run_shop("--db", local_db, *command)
        served = remote(fresh_server, *command)
        assert served.returncode == local.returncode == 0, (command, served.stderr, local.stderr)
        if "--json" in command:
            local_milk, served_milk = ([i for i in json.loads(run.stdout) if i["name"] == "Milk"][0] for run in (local, served))
            assert served_milk["other"] == local_milk["other"] == {"recordName": "gone-list", "name": None}, served.stdout
            assert served_milk["others"][1] == local_milk["others"][1] == {"recordName": "gone-list", "name": None}, served.stdout
        else:
            assert served.stdout == local.stdout, command
    assert "Oat   Home  gone-list  Work, gone-list" in served.stdout, served.stdout


def test_an_https_server_is_reached_through_tls_trusting_the_authority_ssl_cert_file_names(fresh_server, tmp_path):
    proxy = TLSProxy(*fresh_server.url.removeprefix("http://").split(":"))
    try:
        trusted = {"SSL_CERT_FILE": proxy.authority_pem}
        local_db = tmp_path / "local.sqlite"
        local = run_shop("--db", str(local_db), "-f", str(GROCERIES))
        served = remote(fresh_server, "-f", str(GROCERIES), url=proxy.url, env=trusted)
        assert served.returncode == 0, served.stderr
        assert served.stdout == local.stdout
        assert json.loads(run_shop("--db", str(local_db), "--json", "-e", STATE).stdout)["data"] == server_state(fresh_server)
        # Without the authority the server's certificate is not trusted: a clear error at once, no retries.
        started = time.monotonic()
        untrusted = remote(fresh_server, "-e", "lists", url=proxy.url)
        assert untrusted.returncode == 1
        assert untrusted.stderr.startswith(
            f"error: internalError: cannot talk to the server at {proxy.url}: TLS failed (the server's certificate is not signed "
            "by an authority this client trusts); check the URL's scheme and the server's certificate (a certificate from a "
            "private authority is trusted with SSL_CERT_FILE=AUTHORITY.pem)"), untrusted.stderr
        assert "retrying" not in untrusted.stderr and time.monotonic() - started < 20
    finally:
        proxy.close()


def test_plain_http_to_a_tls_port_that_hangs_up_is_told_at_once_to_use_https(fresh_server):
    # A TLS-only port (Python's ssl, as OpenSSL servers do) hangs up on plain HTTP without a word:
    # without the check that follows the first dropped connection, that was 30 s of retries.
    proxy = TLSProxy(*fresh_server.url.removeprefix("http://").split(":"))
    try:
        plain = proxy.url.replace("https://", "http://")
        started = time.monotonic()
        run = remote(fresh_server, "-e", "lists", url=plain)
        assert run.returncode == 1
        assert run.stderr == (f"error: internalError: the server at {plain} hung up without answering: it speaks TLS there; "
                              f"use {proxy.url}\n"), run.stderr
        assert time.monotonic() - started < 10
    finally:
        proxy.close()


def test_https_to_a_plain_http_port_is_told_at_once_to_use_http(fresh_server):
    secure = fresh_server.url.replace("http://", "https://")
    run = remote(fresh_server, "-e", "lists", url=secure)
    assert run.returncode == 1
    assert run.stderr == f"error: internalError: the server at {secure} does not speak TLS there; use {fresh_server.url}\n", run.stderr


def test_plain_http_to_a_tls_server_says_what_it_answered_and_to_use_https():
    # What Go's TLS servers (Caddy among them) answer to a request in plain HTTP, before closing.
    refusal = b"HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n"

    class Refuse(socketserver.BaseRequestHandler):
        def handle(self):
            self.request.recv(65536)
            self.request.sendall(refusal)

    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), Refuse) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}"
        run = run_shop("--server", url, "--token", "0" * 64, "-e", "lists")
        server.shutdown()
    assert run.returncode == 1
    assert run.stderr == (f"error: internalError: the server at {url} answered 400 (Client sent an HTTP request to an "
                          f"HTTPS server.); use {url.replace('http://', 'https://')}\n"), run.stderr


def test_an_ssl_cert_file_that_holds_no_certificate_is_named_before_any_request(fresh_server, tmp_path):
    (tmp_path / "empty.pem").write_text("not a certificate\n")
    for path in [tmp_path / "empty.pem", tmp_path / "missing.pem"]:
        # Named before any connection is made (the server there speaks plain HTTP).
        https = fresh_server.url.replace("http://", "https://")
        run = remote(fresh_server, "-e", "lists", url=https, env={"SSL_CERT_FILE": str(path)})
        assert run.returncode == 1
        assert f"$SSL_CERT_FILE '{path}' is not a readable file of PEM certificates" in run.stderr, run.stderr
        # An http:// server asks for no certificate: the file is not read.
        plain = remote(fresh_server, "-e", "lists", env={"SSL_CERT_FILE": str(path)})
        assert plain.returncode == 0, plain.stderr


def test_output_that_cannot_be_written_fails_with_an_error_and_a_closed_pipe_ends_quietly(fresh_server):
    # A full disk: exit 1 naming why, never a crash (Foundation's FileHandle stopped the process).
    with open("/dev/full", "w") as full:
        environment = {k: v for k, v in os.environ.items() if not k.startswith("SHOP_")}
        run = subprocess.run(
            [SHOP, "--server", fresh_server.url, "--token", fresh_server.token, "-e", "list add Full", "-e", "lists"],
            stdout=full, stderr=subprocess.PIPE, text=True, timeout=60, env=environment)
    assert run.returncode == 1, run.stderr
    assert run.stderr == "error: limitExceeded: cannot write to standard output: No space left on device; what shop printed from then on is lost: send the output where it can be written (free space, or another file)\n"
    # A reader that leaves (`| head -1`) ends shop as SIGPIPE ends any program, quietly, though
    # the client's NIO ignores SIGPIPE.
    assert remote(fresh_server, "-e", "list add Piped").returncode == 0
    script = "".join(f"item add Piped 'item {n:04}'\n" for n in range(2_000))
    assert remote(fresh_server, input=script).returncode == 0
    reader = subprocess.Popen(
        [SHOP, "--server", fresh_server.url, "--token", fresh_server.token, "-e", "export Items", "-e", "export Items"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    reader.stdout.readline()
    reader.stdout.close()
    errors = reader.stderr.read().decode()
    assert reader.wait(timeout=60) == -13, errors
    assert errors == ""
