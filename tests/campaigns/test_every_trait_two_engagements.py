"""Every repair trait and every kind of repair of the shipped campaign tables, played through two
engagements of an Of Oil and Iron campaign on the real path: the campaign's steps through the Flask
client (typed dice), each engagement through the table service. What the first Aftermath writes
must reach the second engagement: its game document, each Rig's card as the board draws it, and
the actions that read it (a move, a shot, a Reload, a Shut Down, a repair roll; the Lucky Machine's
recovery roll in the second Aftermath).

Both players field the example Sword scouts (Jackal, Hyena, Warthog). In each run four Rigs come
back from the first engagement with one group's traits (three groups of four cover all twelve);
Anna's Warthog comes back with a negative trait that is taken off again (bought off in Iron, or
struck by a Black Market Parts Cache she refits for it); Anna's Jackal survives hurt (SP lost, a
wrecked location, a weapon destroyed, a lasting effect) and is repaired whole. One run fits an
Experimental Load-Bearing Frame, whose +1 Iron lets the Jackal take a card it could not carry."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from _campaign_play import act
from test_campaign_routes import new_oi, text, version

from referee.data.oilandiron import load_equipment, load_examples
from referee.oilandiron.board_view import card
from referee.oilandiron.model import LOCATION_LABELS, Engagement
from referee.systems import system_for
from referee.table import campaigns as tc
from referee.table import service

ROOT = Path(__file__).resolve().parents[2]
TABLES = yaml.safe_load((ROOT / "scenarios" / "campaigns" / "oilandiron-example-tables.yaml").read_text())
TRAITS = {t["roll"]: t for t in TABLES["repair_traits"]}
COSTS = TABLES["repair_costs"]
XP = TABLES["experience"]
WEAPON_IRON = {w.key: w.iron for w in load_examples().weapons}
CARD_IRON = {k: c.iron for k, c in load_equipment().items()}
FIGURES = ("speed", "pivot", "heat_threshold", "exhaust")
LOCATIONS = ("hull", "arms", "legs", "engine")

# The Rigs that come back with the group's four traits, in the order of the group's rolls: a
# Hyena (an Autocannon on its left mount) takes the third, the left-mount trait in the first group.
TRAIT_RIGS = ("p2/r1", "p2/r3", "p2/r2", "p1/r2")
STRIPPED = "p1/r3"  # Anna's Warthog: a negative trait, taken off again before engagement 2
REPAIRED = "p1/r1"  # Anna's Jackal: hurt, and repaired whole
LOST_WEAPON = 0  # the Jackal's Autocannon, its first weapon
PLATING = "reinforced_iron_plating"


@dataclass(frozen=True)
class Run:
    rolls: tuple[int, int, int, int]  # the trait roll of each of TRAIT_RIGS
    stripped: int  # the trait roll of the Warthog's negative trait
    black_market: bool  # struck by a Black Market Parts Cache (else bought off in Iron)
    frame: bool  # an Experimental Load-Bearing Frame: the Jackal carries 1 more Iron


RUNS = {"traits 1-4, Black Market": Run((1, 2, 3, 4), 5, True, False),
        "traits 5-8, trait bought off": Run((5, 6, 7, 8), 1, False, False),
        "traits 9-12, Load-Bearing Frame": Run((9, 10, 11, 12), 6, False, True)}


@dataclass
class Played:
    """A campaign played into its second engagement."""
    cid: int
    games: dict[str, int]  # engagement step -> game id
    pieces: dict[str, dict[str, str]]  # engagement step -> {roster Rig ("p1/r1"): its id in the game}
    first: dict  # the first engagement's document (each Rig as built, before any trait)
    iron_paid: dict[str, int] = field(default_factory=dict)  # Iron each repair, refit or strike cost


# --- helpers -------------------------------------------------------------------------------------

def step(client, app_db, cid: int, action: str, status: int = 303, **data) -> str:
    """One campaign step from its form, as the page posts it; its answer's text."""
    r = client.post(f"/campaigns/{cid}/act/{action}", data={"version": version(app_db, cid), **data})
    assert r.status_code == status, text(r)
    return text(r)


def campaign(app_db, cid: int) -> dict:
    app_db.expire_all()
    return tc.get_campaign(app_db, cid).state


def iron(app_db, cid: int, player: str = "p1") -> int:
    return campaign(app_db, cid)["players"][player]["iron"]


def roster(app_db, cid: int, ref: str) -> dict:
    player, _, key = ref.partition("/")
    return campaign(app_db, cid)["rosters"][player]["rigs"][key]


def rolled(app_db, game_id: int, action: str, dice: list[int], **facts):
    """One action on the game with the dice typed; its result."""
    app_db.expire_all()
    return service.perform(app_db, game_id, service.get_game(app_db, game_id).version, action, facts,
                           typed_dice=dice).result


def game(app_db, game_id: int) -> dict:
    app_db.expire_all()
    return service.get_game(app_db, game_id).state


def start(client, app_db, cid: int) -> int:
    """Plan an Iron Clash on Open Plains (no Aftermath modifiers) and start it from the rosters."""
    step(client, app_db, cid, "plan_engagement", engagement="iron_clash", deployment="Battle Lines",
         battlefield="Open Plains")
    r = client.post(f"/campaigns/{cid}/start", data={"version": version(app_db, cid)})
    assert r.status_code == 303, text(r)
    return int(r.headers["Location"].rstrip("/").split("/")[-1])


def end_round(app_db, game_id: int, doomed=()):
    """The umpire marks ``doomed`` destroyed; the round is scored (if the engagement scores each
    round) and ended, so the engagement is decided."""
    for rid in doomed:
        act(app_db, game_id, "adjust_rig", rig=rid, field="destroyed", value="yes", reason="wrecked")
    state = game(app_db, game_id)
    offered = {o.action for o in system_for(state["system"]).offers(state, "") if o.allowed}
    if "score_round" in offered:
        act(app_db, game_id, "score_round", rigs_near_objectives=[])
    act(app_db, game_id, "end_round")
    assert game(app_db, game_id)["ended"]


def play_round(app_db, game_id: int, during) -> None:
    """One round: initiative, then each side activates its Rigs in turn; ``during(rid)`` is what a
    Rig does once activated (True when that ended its activation)."""
    act(app_db, game_id, "initiative")
    while (state := game(app_db, game_id))["phase"] == "activation":
        rid = next(r for r, d in state["rigs"].items() if not d["destroyed"] and not d["activated"]
                   and d["player"] == state["current_player"])
        act(app_db, game_id, "activate", rig=rid)
        if not during(rid):
            act(app_db, game_id, "end_activation")


def the_card(app_db, game_id: int, rid: str):
    """The Rig's card as the board draws it."""
    eng = Engagement.from_doc(game(app_db, game_id))
    return card(eng, eng.rig(rid))


def panel(client, game_id: int, rid: str) -> str:
    """The Rig's own panel, as a tablet shows it."""
    r = client.get(f"/games/{game_id}/rigs/{rid}")
    assert r.status_code == 200
    return text(r)


def traits_of(run: Run, ref: str) -> list[dict]:
    """The traits a Rig carries into engagement 2 (the Warthog's is gone again)."""
    return [TRAITS[roll] for r, roll in zip(TRAIT_RIGS, run.rolls) if r == ref]


def added(traits: list[dict], what: str) -> int:
    return sum(t.get("apply", {}).get(what, 0) for t in traits)


# --- the play-through ----------------------------------------------------------------------------

def play(client, app_db, run: Run) -> Played:
    cid = new_oi(client)
    g1 = start(client, app_db, cid)
    pieces = {"1": {ref: rid for rid, ref in campaign(app_db, cid)["games"]["1"]["pieces"].items()}}
    first = game(app_db, g1)

    # Engagement 1: the trait Rigs lose their Hull and are destroyed, and so is the Warthog; the
    # Jackal loses 1 SP of its Legs and all of its Arms, its Autocannon and its hydraulics.
    jackal = pieces["1"][REPAIRED]
    lost_weapon = list(first["rigs"][jackal]["weapons"])[LOST_WEAPON]
    act(app_db, g1, "adjust_rig", rig=jackal, field="weapon_destroyed", weapon=lost_weapon, value="yes")
    act(app_db, g1, "adjust_rig", rig=jackal, field="status", status="hydraulic_blowout", value="until_repaired")
    for rid, loc, sp in [(pieces["1"][r], "hull", 0) for r in TRAIT_RIGS] + [(jackal, "legs", 2), (jackal, "arms", 0)]:
        act(app_db, g1, "adjust_rig", rig=rid, field="structure", location=loc, value=str(sp))
    play_round(app_db, g1, lambda rid: False)
    end_round(app_db, g1, doomed=[pieces["1"][r] for r in TRAIT_RIGS + (STRIPPED,)])

    # Aftermath 1: each destroyed Rig comes back with the trait rolled for it ("6": patched, with
    # a trait), each player salvages 4 Iron ("12"), experience and rewards.
    r = client.post(f"/campaigns/{cid}/aftermath", data={"version": version(app_db, cid)})
    assert r.status_code == 303, text(r)
    for ref, roll in list(zip(TRAIT_RIGS, run.rolls)) + [(STRIPPED, run.stripped)]:
        step(client, app_db, cid, "recovery_roll", rig=ref, typed=f"6 {roll}")
        assert roster(app_db, cid, ref)["traits"][-1]["name"] == TRAITS[roll]["name"]
    for player in ("p1", "p2"):
        step(client, app_db, cid, "salvage_roll", player=player, typed="12")
    step(client, app_db, cid, "experience")

    # The Jackal repaired whole, each repair at the table's price.
    paid = {}
    for what, sp in (("legs", 1), ("arms", 2), (f"weapon:{LOST_WEAPON}", 1), ("lasting:hydraulic_blowout", 1)):
        before = iron(app_db, cid)
        step(client, app_db, cid, "repair", rig=REPAIRED, what=what, sp=str(sp))
        paid[what] = before - iron(app_db, cid)

    # The Warthog's negative trait taken off: struck by a Black Market Parts Cache refitted for it
    # (the Warthog drops its plating and claw to carry it), or bought off in Iron.
    name = TRAITS[run.stripped]["name"]
    if run.black_market:
        page = step(client, app_db, cid, "black_market", 422, rig=STRIPPED, trait=name)
        assert "carries no Black Market Parts Cache" in page
        refit_warthog(client, app_db, cid, "black_market_parts_cache", paid)
        before = iron(app_db, cid)
        step(client, app_db, cid, "black_market", rig=STRIPPED, trait=name)
        paid["black_market"] = before - iron(app_db, cid)
    else:
        before = iron(app_db, cid)
        step(client, app_db, cid, "repair", rig=STRIPPED, what=f"trait:{name}", sp="1")
        paid["trait"] = before - iron(app_db, cid)

    # The Load-Bearing Frame: the Warthog carries it, the Jackal gains its +1 Iron and takes
    # Reinforced Iron Plating (2 Iron) on top of its 3.
    if run.frame:
        page = step(client, app_db, cid, "refit", 422, rig=REPAIRED, card=PLATING)
        assert "it carries 4" in page
        refit_warthog(client, app_db, cid, "experimental_load_bearing_frame", paid)
        step(client, app_db, cid, "load_bearing_frame", rig=REPAIRED)
        before = iron(app_db, cid)
        step(client, app_db, cid, "refit", rig=REPAIRED, card=PLATING)
        paid[PLATING] = before - iron(app_db, cid)
    step(client, app_db, cid, "close_aftermath")

    g2 = start(client, app_db, cid)
    pieces["2"] = {ref: rid for rid, ref in campaign(app_db, cid)["games"]["2"]["pieces"].items()}
    return Played(cid, {"1": g1, "2": g2}, pieces, first, paid)


def refit_warthog(client, app_db, cid: int, equipment: str, paid: dict) -> None:
    """The Warthog (5 Iron: claw 1, field gun 2, plating 2) takes off its plating and claw (no Iron
    back) to carry a 3-Iron campaign card."""
    for taken_off in (PLATING, "example_hydraulic_claw"):
        step(client, app_db, cid, "refit", rig=STRIPPED, card=taken_off, remove="on")
    before = iron(app_db, cid)
    step(client, app_db, cid, "refit", rig=STRIPPED, card=equipment)
    paid[equipment] = before - iron(app_db, cid)


# --- what engagement 2 shows and does -----------------------------------------------------------

def check_rig_in_engagement_2(client, app_db, played: Played, ref: str, traits: list[dict]) -> None:
    """Its figures and structure are the first engagement's changed by its traits, in the game
    document, on its card and on its panel; the card names each trait with its effect; the rules
    a trait changes are in the document; its experience and rank are on the card."""
    g2 = played.games["2"]
    rid, was = played.pieces["2"][ref], played.first["rigs"][played.pieces["1"][ref]]
    now = game(app_db, g2)["rigs"][rid]
    c, page = the_card(app_db, g2, rid), panel(client, g2, rid)
    for figure in FIGURES:
        assert now[figure] == was[figure] + added(traits, figure), (ref, figure)
    for loc in LOCATIONS:
        assert now["structure_max"][loc] == was["structure_max"][loc] + added(traits, loc), (ref, loc)
    assert f'Move {now["speed"]}"' in c.speed and f"{now['pivot']} pivots" in c.speed
    assert c.heat.threshold == now["heat_threshold"] and c.rig.exhaust == now["exhaust"]
    assert f'Move {now["speed"]}"' in page and f"{now['pivot']} pivots" in page
    assert f"threshold {now['heat_threshold']}" in page and f"Exhaust {now['exhaust']}" in page
    for bar in c.locations:
        assert (bar.sp, bar.max) == (now["structure"][bar.key], now["structure_max"][bar.key])
        assert f"{LOCATION_LABELS[bar.key]} {bar.sp}/{bar.max}" in page
    assert c.traits == [(t["name"], t["effect"]) for t in traits]
    for t in traits:
        assert f"{t['name']} ({t['effect']})" in page
    rules = {k: {"amount": n, "trait": t["name"]} for t in traits for k, n in t.get("apply", {}).items()
             if k not in FIGURES + LOCATIONS + ("recovery_reroll",)}
    assert now["campaign"]["rules"] == rules
    rec, camp = roster(app_db, played.cid, ref), campaign(app_db, played.cid)
    winner = camp["games"]["1"]["result"]["winner"]
    destroyed = ref in TRAIT_RIGS + (STRIPPED,)
    xp = XP["took_part"] + (0 if destroyed else XP["survived"]) + (XP["on_winning_side"] if winner == ref[:2] else 0)
    rank = max((r for r in XP["ranks"] if r["xp"] <= xp), key=lambda r: r["xp"])["name"]
    assert rec["xp"] == xp and c.campaign == f"XP {xp} · {rank}" and f"XP {xp} · {rank}" in page


def check_trait_rigs(client, app_db, played: Played, run: Run) -> None:
    """Each trait Rig as engagement 2 has it; the Hull it lost in engagement 1 is patched to 1 SP
    of the Hull it has with its traits (Patched Hull: 1 of the Warthog's 3)."""
    for ref in TRAIT_RIGS:
        check_rig_in_engagement_2(client, app_db, played, ref, traits_of(run, ref))
        now = game(app_db, played.games["2"])["rigs"][played.pieces["2"][ref]]
        assert now["structure"]["hull"] == 1 and "hull" not in now.get("catastrophic", [])


def check_repaired_jackal(client, app_db, played: Played, run: Run) -> None:
    """The Jackal's repairs cost what the table says and leave it whole in engagement 2: every
    location at its full SP, its Autocannon back, no Hydraulic Blowout (its full Move)."""
    assert played.iron_paid["legs"] == COSTS["per_sp"]
    assert played.iron_paid["arms"] == 2 * COSTS["per_sp"] + COSTS["wrecked_location"]
    assert played.iron_paid[f"weapon:{LOST_WEAPON}"] == WEAPON_IRON["example_autocannon"]
    assert played.iron_paid["lasting:hydraulic_blowout"] == COSTS["lasting_effect"]
    check_rig_in_engagement_2(client, app_db, played, REPAIRED, [])
    rid, g2 = played.pieces["2"][REPAIRED], played.games["2"]
    now = game(app_db, g2)["rigs"][rid]
    assert now["structure"] == now["structure_max"] and not now.get("catastrophic")
    assert not now.get("status")
    weapons = played.first["rigs"][played.pieces["1"][REPAIRED]]["weapons"]
    assert list(now["weapons"]) == list(weapons) and not any(w["destroyed"] for w in now["weapons"].values())
    c = the_card(app_db, g2, rid)
    assert [w.name for w in c.weapons] == [w["name"] for w in weapons.values()]
    assert all(w.state == "Loaded" for w in c.weapons)
    assert c.statuses == [] and "Hydraulic Blowout" not in panel(client, g2, rid)
    equipment = {"extinguisher"} | ({PLATING} if run.frame else set())
    assert set(now["equipment"]) == equipment
    if run.frame:  # its Iron: the chassis's 4 and the frame's 1, all of it carried
        assert played.iron_paid[PLATING] == CARD_IRON[PLATING]
        assert roster(app_db, played.cid, REPAIRED)["iron_bonus"] == 1
        assert (now["iron"], now["iron_used"]) == (5, 5)


def check_stripped_warthog(client, app_db, played: Played, run: Run) -> None:
    """The Warthog's negative trait, bought off at the table's price or struck by the Black Market,
    is on neither its card nor its figures; a refit is what it carries in engagement 2."""
    name = TRAITS[run.stripped]["name"]
    rec = roster(app_db, played.cid, STRIPPED)
    if run.black_market:
        assert played.iron_paid["black_market"] == 0
        assert [(t["name"], t["ignored"]) for t in rec["traits"]] == [(name, True)]
    else:
        assert played.iron_paid["trait"] == COSTS["negative_trait"]
        assert rec["traits"] == []
    check_rig_in_engagement_2(client, app_db, played, STRIPPED, [])
    now = game(app_db, played.games["2"])["rigs"][played.pieces["2"][STRIPPED]]
    assert name not in panel(client, played.games["2"], played.pieces["2"][STRIPPED])
    weapons = [w["name"] for w in now["weapons"].values()]
    if run.black_market or run.frame:
        fitted = "black_market_parts_cache" if run.black_market else "experimental_load_bearing_frame"
        assert played.iron_paid[fitted] == CARD_IRON[fitted]
        assert set(now["equipment"]) == {fitted} and weapons == ["Example Field Gun"]
    else:
        assert set(now["equipment"]) == {PLATING} and len(weapons) == 2


# What a Rig with the trait does once activated in engagement 2 (True: that ended its activation).
def moves(expect: str):
    def probe(app_db, g2, rid, was):
        data = act(app_db, g2, "move", rig=rid).result.data
        figure = {"forward": "speed", "pivots": "pivot"}[expect]
        assert data[expect] == was[figure] - 1, (expect, data)
    return probe


def fires_left_mount(app_db, g2, rid, was):
    state = game(app_db, g2)
    left = next(w for w, d in state["rigs"][rid]["weapons"].items() if d["mount"] == "left")
    enemy = next(r for r, d in state["rigs"].items() if d["player"] != state["rigs"][rid]["player"])
    result = rolled(app_db, g2, "fire_weapon", [1, 1, 1], rig=rid, weapon=left, target=enemy)  # three misses
    assert [(m.amount, m.rule) for m in result.modifiers if "Warped" in m.rule] == \
        [(-1, "Warped Barrel Mount (repair trait, left mount)")]


def shuts_down(app_db, g2, rid, was):
    result = act(app_db, g2, "shut_down", rig=rid).result
    assert game(app_db, g2)["rigs"][rid]["heat"] == 1
    assert "Leaking Coolant (repair trait): heat 1 after the Shut Down." in result.notes
    return True


def reloads(app_db, g2, rid, was):
    weapon = next(iter(game(app_db, g2)["rigs"][rid]["weapons"]))
    act(app_db, g2, "adjust_rig", rig=rid, field="weapon_loaded", weapon=weapon, value="no", reason="fired")
    heat = game(app_db, g2)["rigs"][rid]["heat"]
    act(app_db, g2, "reload", rig=rid)
    assert game(app_db, g2)["rigs"][rid]["heat"] == heat + 2


def repairs_the_hull(app_db, g2, rid, was):
    facts = {"rig": rid, "location": "hull"}
    assert service.odds(app_db, g2, "repair", facts)[0] == "Fails: 50.0%"  # 7+ on the D12, not 6+
    first = rolled(app_db, g2, "repair", [6], **facts)
    assert first.data["restored"] == 0
    assert [(m.amount, m.rule) for m in first.modifiers] == \
        [(-1, "Jury-Rigged Controls (repair trait, first repair roll)")]
    second = rolled(app_db, g2, "repair", [6], **facts)
    assert second.data["restored"] == 1 and not second.modifiers


PROBES = {"Seized Servos": moves("forward"), "Twisted Frame": moves("pivots"),
          "Warped Barrel Mount": fires_left_mount, "Leaking Coolant": shuts_down,
          "Sticky Loader": reloads, "Jury-Rigged Controls": repairs_the_hull}


def check_actions(app_db, played: Played, run: Run) -> set[str]:
    """One round of engagement 2: each trait Rig, once activated, lives by its trait. Returns the
    traits so tried."""
    g2, tried = played.games["2"], set()
    by_rid = {played.pieces["2"][ref]: (ref, TRAITS[roll]["name"]) for ref, roll in zip(TRAIT_RIGS, run.rolls)}

    def during(rid):
        ref, name = by_rid.get(rid, (None, None))
        if name not in PROBES:
            return False
        tried.add(name)
        return bool(PROBES[name](app_db, g2, rid, played.first["rigs"][played.pieces["1"][ref]]))
    play_round(app_db, g2, during)
    return tried


def check_lucky_machine(client, app_db, played: Played) -> None:
    """The Lucky Machine's Rig, destroyed in engagement 2, rolls its lost recovery roll again."""
    ref = next(r for r in TRAIT_RIGS if roster(app_db, played.cid, r)["traits"][0]["name"] == "Lucky Machine")
    g2 = played.games["2"]
    bens = [rid for r, rid in played.pieces["2"].items() if r.startswith("p2/")]
    end_round(app_db, g2, doomed=[played.pieces["2"][ref], *bens])
    r = client.post(f"/campaigns/{played.cid}/aftermath", data={"version": version(app_db, played.cid)})
    assert r.status_code == 303, text(r)
    assert "Lucky Machine: rolls again if lost (once per campaign)" in text(client.get(f"/campaigns/{played.cid}"))
    step(client, app_db, played.cid, "recovery_roll", rig=ref, typed="1 9")  # 1: lost; again, 9: recovered
    rec = roster(app_db, played.cid, ref)
    assert rec["status"] == "active" and [t.get("used") for t in rec["traits"]] == [True]
    assert "Lucky Machine: 1 would lose it; it rolls again (once per campaign)." in \
        text(client.get(f"/campaigns/{played.cid}/log"))


# --- the tests -----------------------------------------------------------------------------------

def test_the_runs_cover_every_trait_of_the_shipped_tables():
    rolled = [roll for run in RUNS.values() for roll in run.rolls]
    assert sorted(rolled) == sorted(TRAITS) == list(range(1, 13))
    assert {TRAITS[run.stripped]["negative"] for run in RUNS.values()} == {True}
    assert [run.black_market for run in RUNS.values()].count(True) == 1
    assert [run.frame for run in RUNS.values()].count(True) == 1
    assert set(PROBES) == {t["name"] for t in TRAITS.values()
                           if set(t.get("apply", {})) & {"speed", "pivot", "left_mount_acc", "shutdown_heat",
                                                         "reload_heat", "first_repair"}}


@pytest.mark.parametrize("run", RUNS.values(), ids=RUNS.keys())
def test_every_trait_and_repair_reaches_the_second_engagement(client, app_db, run):
    played = play(client, app_db, run)
    check_trait_rigs(client, app_db, played, run)
    check_repaired_jackal(client, app_db, played, run)
    check_stripped_warthog(client, app_db, played, run)
    names = {TRAITS[roll]["name"] for roll in run.rolls}
    assert check_actions(app_db, played, run) == names & set(PROBES)
    if "Lucky Machine" in names:
        check_lucky_machine(client, app_db, played)
