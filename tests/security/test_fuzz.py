"""Malformed input never breaks the server: Hypothesis sends generated bad requests to every
route in ``app.url_map`` (every method it takes, path arguments, query strings and form fields
drawn from what the routes read, with out-of-range and non-ASCII numbers, numbers of thousands
of digits, deep JSON and YAML, unknown fields, files) and checks that

- no answer is a server error (5xx), and
- a refused request (4xx) changed nothing in the database (every row of every table hashed).

On a club server the requests come from five actors, each a tablet of its own: the umpire (the
first account, seated as umpire at every game), a side's player (seated as Blue and as a
Squadron's first player, no account), a signed-in stranger (an account with no seat), a spectator
of every game, and an anonymous client. The table holds a battle, an engagement, a game started
from saved lists and a campaign, so pages about one of them (campaigns, seats, join, accounts, the
reference) are reached with real numbers as well as bad ones. A request that changes who the
actor is (signing out, in or up, taking a seat) is followed by making the actor again.

A short run is part of ``make test`` (``FUZZ_EXAMPLES`` requests per actor, 150 by default, and
as many on a laptop table); ``make fuzz`` runs the long one, 2,000 per actor: 10,000 requests on
the club server. Each actor prints its figures: requests sent, refused, accepted with a change.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from io import BytesIO

import pytest
from _security_helpers import EXAMPLES as EXAMPLE_LISTS
from _security_helpers import PASSWORD, db, fingerprint, log_in
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import select
from werkzeug.datastructures import MultiDict
from werkzeug.routing import IntegerConverter

from referee.systems import system_for
from referee.table import accounts
from referee.table import campaign_games as cg
from referee.table.models import JoinCode

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


def _fuzz(app, client, examples: int, mode: str, again=None):
    """``again``: makes the actor afresh after a request that changed who the client is."""
    routes = _routes(app)
    state = {"print": fingerprint(app), "client": client}

    @settings(max_examples=examples, suppress_health_check=list(HealthCheck), deadline=None, database=None)
    @given(request=requests(routes))
    def run(request):
        response = _send(state["client"], request)
        TALLY[f"{mode} requests"] += 1
        after = fingerprint(app)
        status = response.status_code
        assert status < 500, (request[1], request[2], status, response.get_data(as_text=True)[:300])
        TALLY["server errors"] += status >= 500
        if status >= 400:
            TALLY[f"{mode} refused"] += 1
            assert after == state["print"], ("a refused request changed the database", request[1], request[2], status)
        elif after != state["print"]:
            TALLY[f"{mode} accepted changes"] += 1
        if again is not None and status < 400 and request[1] != "GET" and request[0].endpoint in WHO_CHANGES:
            state["client"] = again()
            after = fingerprint(app)
        state["print"] = after

    run()
    total = sum(v for k, v in TALLY.items() if k.endswith(" requests"))
    print(f"\nfuzz ({mode}): {dict(TALLY)}; {total} requests in all, {TALLY['server errors']} server errors, "
          "0 refused requests that changed the database")


# Requests after which the actor is made again: it may have signed out, in as another, or moved seat.
WHO_CHANGES = {"auth.logout", "auth.login", "auth.register", "auth.setup", "roles.join"}
ACTORS = ("umpire", "player", "stranger", "spectator", "anonymous")


def _codes(app) -> dict[tuple[int, str], str]:
    with db(app) as s:
        return {(c.game_id, c.role): c.code for c in s.exec(select(JoinCode)).all()}


def _actor(app, who: str):
    """A fresh tablet for ``who`` (see the module's docstring). The wrong passwords and codes the
    fuzz itself sent are forgotten first: they come from the same address as the actor's own."""
    for key in [k for k in app.extensions if k.startswith("referee.wrong_")]:
        del app.extensions[key]
    client = app.test_client()
    if who == "umpire":
        log_in(client, "Ann")
        for game_id in (1, 2, 3):
            assert client.post("/join", data={"code": _codes(app)[(game_id, "umpire")], "confirm": "umpire"}).status_code == 303
    elif who == "player":
        for seat in ((1, "blue"), (2, "p1")):
            assert client.post("/join", data={"code": _codes(app)[seat]}).status_code == 303
    elif who == "stranger":
        log_in(client, "Cleo")
    elif who == "spectator":
        for game_id in (1, 2, 3):
            assert client.post("/join", data={"code": _codes(app)[(game_id, "spectator")]}).status_code == 303
    return client


def _club_table(app) -> None:
    """The seeded table, with a campaign (Ann's, Bob and Ann its players) and a stranger's account."""
    sword = EXAMPLE_LISTS["example-sword-squadron"]
    with db(app) as s:
        accounts.register(s, "Cleo", PASSWORD)
        cg.new_hundred_days(s, "The Hundred Days", "Ann", "Bob", owner="Ann")
        cg.new_oilandiron(s, "League", {"p1": ("Ann", sword.model_copy(update={"name": "A"})),
                                        "p2": ("Bob", sword.model_copy(update={"name": "B"}))},
                          cg.read_yaml_file("oilandiron-example-tables.yaml"), owner="Ann")


def test_bad_input_leaves_a_laptop_table_standing(laptop_app):
    client = laptop_app.test_client()
    client.post("/lists/owner", data={"owner": "Ann"})
    _fuzz(laptop_app, client, EXAMPLES, "laptop")


@pytest.mark.parametrize("who", ACTORS)
def test_bad_input_never_breaks_a_club_server(club_app, who):
    _club_table(club_app)
    _fuzz(club_app, _actor(club_app, who), EXAMPLES, who, again=lambda: _actor(club_app, who))


def test_every_route_is_reached(laptop_app):
    """The fuzz draws from every route the app has: none is left out by its shape."""
    routes = _routes(laptop_app)
    assert len(routes) >= 40
    for name in ("games.perform", "games.undo", "lists.import_list", "oilandiron.new_engagement",
                 "roles.join", "roles.join_page", "roles.seats", "roles.make_codes", "auth.login", "auth.logout",
                 "auth.account", "auth.give_password", "lists.delete", "campaigns.page", "campaigns.export",
                 "campaigns.act", "campaigns.create", "reference.index"):
        assert name in {r.endpoint for r in routes}


@pytest.mark.parametrize("path", ["/games/99999999999999999999999", "/games/2147483648", "/lists/9" + "9" * 30,
                                  "/games/%C2%B2", "/games/%D9%A3/log"])
def test_ids_out_of_range_or_not_ascii_are_not_pages(laptop_app, path):
    assert laptop_app.test_client().get(path).status_code == 404
