"""Malformed input never breaks the server: Hypothesis sends generated bad requests to every
route in ``app.url_map`` (every method it takes, path arguments, query strings and form fields
drawn from what the routes read, with out-of-range and non-ASCII numbers, numbers of thousands
of digits, deep JSON and YAML, unknown fields, files) and checks that

- no answer is a server error (5xx), and
- a refused request (4xx) changed nothing in the database (every row of every table hashed).

A short run is part of ``make test``; ``make fuzz`` runs the long one (``FUZZ_EXAMPLES``
requests for each of three tablets: a laptop table's, a club member's with no seat, and a club
player's seated as Blue; 15,000 by default) and prints the figures.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from io import BytesIO

import pytest
from _security_helpers import fingerprint, log_in
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from werkzeug.routing import IntegerConverter

from referee.systems import system_for

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "150"))
TALLY: Counter = Counter()

ACTIONS = sorted({a for s in ("blackpowder", "oilandiron") for a in system_for(s).actions})
FACT_FIELDS = sorted({f for s in ("blackpowder", "oilandiron") for spec in system_for(s).actions.values()
                      for f in spec.facts.model_fields})
FIELDS = sorted(set(FACT_FIELDS) | {
    "again", "aggressor", "archived", "back_to", "battle", "code", "confirm", "engagement", "entry", "first",
    "first_role", "game", "grow", "message", "mode", "more_dice", "name", "next", "op", "owner", "password",
    "public", "q", "scenario", "second", "system", "tables", "text", "typed", "v", "version", "who", "file",
    "blue-n", "red-n", "blue-name", "blue-nation", "blue-general", "blue-general-rating", "blue-b0-n",
    "blue-b0-name", "blue-b0-rating", "blue-b0-commander", "blue-b0-u0-name", "blue-b0-u0-profile",
    "blue-b0-u0-count", "p1-n", "p2-n", "p1-name", "p1-typed", "p2-typed", "p1-r0-name", "p1-r0-chassis",
    "p1-r0-engine", "p1-r0-w0", "p1-r0-equipment", "brigades.0.name", "brigades.0.units.0.profile",
    "brigades.0.units.0.count", "brigades.0.commander.name", "nation", "rigs.0.name", "rigs.0.chassis",
    "rigs.0.weapons.0", "rigs.0.perks", "cards.chassis.0.name", "cards.weapons.0.perks", "formation", "tier",
    "campaign", "allies", "csrf_token",
})
DEEP_JSON = "[" * 3000 + "]" * 3000
DEEP_YAML = "".join("  " * i + "- \n" for i in range(400)) + "  " * 400 + "x\n"
FLOW_YAML = "a: " + "[" * 3000 + "]" * 3000
ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b]\n"
BAD = [
    "", " ", "0", "-1", "1", "2", "3", "6", "²", "٣", "1²", "²³", "١٢", "9" * 25, "9" * 5000, "-" + "9" * 40,
    "1e999", "NaN", "inf", "1.5", "0x10", "1_000", "\x00", "💥", "<script>alert(1)</script>", "//evil.example/",
    "/\t/evil.example/", "/%09/evil.example/", "https://evil.example/", DEEP_JSON, DEEP_YAML, FLOW_YAML, ALIAS_BOMB,
    '{"format": "referee-list", "format_version": 1, "system": "blackpowder", "list": ' + DEEP_JSON + "}",
    "- name: X\n  chassis: example_light\n  surprise: 1\n", "- {chassis: nope}\n", "[1, 2]", "{}", "null",
    "on", "true", "yes", "app", "typed", "blue", "red", "p1", "p2", "umpire", "spectator", "demo",
    "11th-leger", "82nd-ligne", "blue-7th-division", "p1-r1", "p2-r1", "Ann", "check", "save",
    "add-brigade", "add-rig", "remove-rig-0", "4 5 6", "1 2 3 4 5 6 7 8 9 10 11 12 13", "7 7", "x" * 400,
]
value = st.one_of(st.sampled_from(BAD), st.text(max_size=30), st.sampled_from(ACTIONS),
                  st.integers(min_value=-10**30, max_value=10**30).map(str))
segment = st.one_of(st.sampled_from(BAD[:30]), st.sampled_from(ACTIONS),
                    st.sampled_from(["blackpowder", "oilandiron", "nope", "s", "sheet", "demo"]),
                    st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#"),
                            min_size=1, max_size=12))
ids = st.one_of(st.sampled_from(["1", "2", "3", "4", "0", "99999999999999999999999", "2147483648", "9" * 5000,
                                 "²", "٣", "-1", "1.5", "01"]),
                st.integers(min_value=0, max_value=2**70).map(str))


def _routes(app) -> list:
    return sorted((r for r in app.url_map.iter_rules() if r.endpoint != "static"), key=lambda r: r.rule)


@st.composite
def requests(draw, routes):
    rule = draw(st.sampled_from(routes))
    method = draw(st.sampled_from(sorted(rule.methods - {"HEAD", "OPTIONS"})))

    def fill(match):
        name = match.group(1).split(":")[-1]
        converter = rule._converters.get(name)
        raw = draw(ids) if isinstance(converter, IntegerConverter) else draw(segment)
        return raw

    path = re.sub(r"<([^>]+)>", fill, rule.rule)
    fields = draw(st.lists(st.tuples(st.one_of(st.sampled_from(FIELDS), st.text(max_size=12)), value), max_size=8))
    query = draw(st.lists(st.tuples(st.sampled_from(FIELDS), value), max_size=3))
    upload = draw(st.none() | st.sampled_from(BAD[20:40]))
    htmx = draw(st.booleans())
    return rule, method, path, fields, query, upload, htmx


def _send(client, request):
    _rule, method, path, fields, query, upload, htmx = request
    data = [(k, v) for k, v in fields]
    if upload is not None and method == "POST":
        data.append(("file", (BytesIO(upload.encode("utf-8", "surrogatepass")), "list.json")))
    headers = {"HX-Request": "true"} if htmx else {}
    return client.open(path, method=method, query_string=MultiDict(query),
                       data=MultiDict(data) if method != "GET" else None, headers=headers)


def _fuzz(app, client, examples: int, mode: str):
    routes = _routes(app)
    state = {"print": fingerprint(app)}

    @settings(max_examples=examples, suppress_health_check=list(HealthCheck), deadline=None, database=None)
    @given(request=requests(routes))
    def run(request):
        response = _send(client, request)
        TALLY[f"{mode} requests"] += 1
        after = fingerprint(app)
        status = response.status_code
        assert status < 500, (request[1], request[2], status, response.get_data(as_text=True)[:300])
        if status >= 400:
            TALLY[f"{mode} refused"] += 1
            assert after == state["print"], ("a refused request changed the database", request[1], request[2], status)
        elif after != state["print"]:
            TALLY[f"{mode} accepted changes"] += 1
        state["print"] = after

    run()
    print(f"\nfuzz ({mode}): {dict(TALLY)}")


def test_bad_input_never_breaks_a_laptop_table(laptop_app):
    client = laptop_app.test_client()
    client.post("/lists/owner", data={"owner": "Ann"})
    _fuzz(laptop_app, client, EXAMPLES, "laptop")


def test_bad_input_never_breaks_a_club_server(club_app):
    client = log_in(club_app.test_client(), "Bob")
    _fuzz(club_app, client, EXAMPLES, "club")


def test_bad_input_never_breaks_a_club_game_from_a_players_tablet(club_app):
    """A tablet seated as Blue's player at the battle: the role checks meet the generated facts."""
    from _security_helpers import db
    from sqlmodel import select

    from referee.table.models import JoinCode
    client = club_app.test_client()
    with db(club_app) as s:
        code = s.exec(select(JoinCode).where(JoinCode.game_id == 1, JoinCode.role == "blue")).one().code
    assert client.post("/join", data={"code": code}).status_code == 303
    _fuzz(club_app, client, EXAMPLES, "club player")


def test_every_route_is_reached(laptop_app):
    """The fuzz draws from every route the app has: none is left out by its shape."""
    routes = _routes(laptop_app)
    assert len(routes) >= 40
    for name in ("games.perform", "games.undo", "lists.import_list", "oilandiron.new_engagement",
                 "roles.join", "auth.login", "lists.delete"):
        assert name in {r.endpoint for r in routes}


@pytest.mark.parametrize("path", ["/games/99999999999999999999999", "/games/2147483648", "/lists/9" + "9" * 30,
                                  "/games/%C2%B2", "/games/%D9%A3/log"])
def test_ids_out_of_range_or_not_ascii_are_not_pages(laptop_app, path):
    assert laptop_app.test_client().get(path).status_code == 404
