"""The Of Oil and Iron Aftermath: one step after each engagement, taken a roll at a time so every
part is in the campaign log (and undoable) as soon as it is shown done.

1. ``begin_aftermath`` reads the finished engagement into the rosters: service history, kills,
   damage and lasting effects carried, weapons lost, destroyed Rigs awaiting recovery.
2. ``recovery_roll`` for each destroyed Rig: D12 on the recovery table, +2 with a Contracted
   Recovery Crew unless the Rig exploded, the battlefield's modifier; a trait roll when it
   comes back patched.
3. ``salvage_roll`` for each player: the table's rolls, D3 more with a Battlefield Recovery Rig.
4. ``experience`` for every Rig that fought, and each player's reward in Iron.
5. Any time before closing (:mod:`referee.campaigns.repairs`): the Black Market Parts Cache strikes one negative repair trait; the
   Experimental Load-Bearing Frame gives one Rig +1 Iron; repairs and refits are paid in Iron.
6. ``close_aftermath`` once every destroyed Rig and every player has rolled.
"""
from __future__ import annotations

from fractions import Fraction

from pydantic import Field

from ..core.contract import ActionSpec
from ..core.errors import RuleError
from ..core.results import Modifier, Result
from ..core.words import counted
from .common import StepFacts, builder
from .oilandiron import (
    LASTING,
    LOCATIONS,
    modifiers_for_recovery,
    rig_label,
    squadron_cards,
    structure_with_traits,
    tables_of,
    traits_in_force,
)
from .rolls import Row, odds_line, percent, roll_d3, roll_on, table_odds

PLAYER = {"json_schema_extra": {"ref": "player"}}
RIG = {"json_schema_extra": {"ref": "roster_rig"}}


def open_aftermath(doc: dict) -> dict:
    a = doc.get("aftermath")
    if not a:
        raise RuleError("No Aftermath is open: it begins when a finished engagement is read in.")
    return a


def roster_rig(doc: dict, ref: str) -> tuple[str, str, dict]:
    """(player, key, the roster's Rig with its ``label``: its name, and its owner's when another
    Rig shares the name) for a Rig named "p1/r2"."""
    player, _, key = ref.partition("/")
    rig = doc.get("rosters", {}).get(player, {}).get("rigs", {}).get(key)
    if rig is None:
        raise RuleError("That Rig is on neither roster: choose one of the Rigs listed.")
    return player, key, dict(rig, label=rig_label(doc, ref))


# --- 1. begin ----------------------------------------------------------------------------------

class BeginFacts(StepFacts):
    step: str = Field(max_length=20)
    report: dict


def resolve_begin(doc: dict, facts: BeginFacts, dice) -> Result:
    if doc.get("aftermath"):
        raise RuleError("An Aftermath is already open: close it first.")
    game = doc.get("games", {}).get(facts.step)
    if game is None:
        raise RuleError(f"The campaign has no engagement {facts.step}.")
    if game["status"] != "playing":
        raise RuleError(f"Engagement {facts.step} has had its Aftermath already.")
    rep, b, notes = facts.report, builder(doc), []
    carries = doc["settings"].get("damage_carries", True)
    pending = []
    for rid, r in rep["rigs"].items():
        player, key, rec = roster_rig(doc, r["roster"])
        base = ("rosters", player, "rigs", key)
        new_damage = sum(max(0, r["lost"][loc] - rec["damage"][loc]) for loc in LOCATIONS) if carries \
            else r["damage_taken"]
        h = dict(rec["history"])
        h["engagements"] += 1
        h["damage_taken"] += new_damage
        h["damage_dealt"] += r["damage_dealt"]
        if r["destroyed"]:
            h["destroyed"] += 1
        b.set(base + ("history",), h, f"{rec['label']}: service history updated")
        if r["kills"]:
            b.set(base + ("kills",), rec["kills"] + r["kills"], f"{rec['label']}: kills {rec['kills']} → {rec['kills'] + r['kills']}")
        if carries:
            b.set(base + ("damage",), dict(r["lost"]), f"{rec['label']}: carries " +
                  (", ".join(f"{loc.title()} −{n}" for loc, n in r["lost"].items() if n) or "no damage"))
            b.set(base + ("lasting",), list(r["lasting"]), f"{rec['label']}: lasting effects " +
                  (", ".join(LASTING[x] for x in r["lasting"]) or "none"))
        if r["weapons_destroyed"]:
            weapons = [dict(w, lost=w["lost"] or i in r["weapons_destroyed"]) for i, w in enumerate(rec["weapons"])]
            b.set(base + ("weapons",), weapons, f"{rec['label']}: weapons lost " +
                  ", ".join(doc["catalogue"]["weapons"].get(rec["weapons"][i]["card"], {}).get("name", "?")
                            for i in r["weapons_destroyed"]))
        line = f"Engagement {facts.step}: {counted(r['kills'], 'kill')}, {new_damage} SP taken, {r['damage_dealt']} dealt"
        if r["destroyed"]:
            line += ", destroyed" + (" (exploded)" if r["exploded"] else "")
            b.set(base + ("status",), "awaiting_recovery", f"{rec['label']}: destroyed, awaits its recovery roll")
            pending.append(r["roster"])
        b.set(base + ("service",), rec["service"] + [line], f"{rec['label']}: service record, {line}")
    b.set(("games", facts.step, "status"), "aftermath", f"Engagement {facts.step}: Aftermath begun")
    b.set(("games", facts.step, "result"), {"winner": rep["winner"], "text": rep["result"], "vp": rep["vp"]},
          f"Engagement {facts.step}: {rep['result']}")
    b.set(("aftermath",), {"step": facts.step, "battlefield": game.get("battlefield"), "winner": rep["winner"],
                           "report": rep, "pending_recovery": pending, "recovery": {}, "salvage": {},
                           "experience": False, "black_market": [], "exploded": [
                               r["roster"] for r in rep["rigs"].values() if r["exploded"]]},
          f"Aftermath of engagement {facts.step} open")
    if pending:
        notes.append("Destroyed, awaiting a recovery roll: " + ", ".join(roster_rig(doc, r)[2]["label"] for r in pending))
    return Result("begin_aftermath", f"Aftermath of engagement {facts.step}: the results are on the rosters",
                  changes=b.changes, notes=tuple(notes))


BEGIN = ActionSpec("begin_aftermath", "Begin the Aftermath", BeginFacts, resolve_begin, rolls_dice=False)


# --- 2. recovery -------------------------------------------------------------------------------

class RecoveryFacts(StepFacts):
    rig: str = Field(title="Destroyed Rig", max_length=40, **RIG)
    exploded: bool | None = Field(None, title="Did it explode?",
                                     json_schema_extra={"help": "Left empty: as the engagement shows it."})


def _recovery_setup(doc: dict, facts: RecoveryFacts):
    a = open_aftermath(doc)
    player, key, rec = roster_rig(doc, facts.rig)
    if facts.rig not in a["pending_recovery"]:
        raise RuleError(f"{rec['label']} was not destroyed in this engagement, or has rolled already.")
    boom = facts.exploded if facts.exploded is not None else facts.rig in a["exploded"]
    return a, player, key, rec, boom, modifiers_for_recovery(doc, player, boom)


def lucky(doc: dict, rec: dict) -> dict | None:
    """The Rig's unused trait that lets it roll a recovery roll again (once per campaign)."""
    return next((t for t in traits_in_force(rec, tables_of(doc))
                 if t["apply"].get("recovery_reroll") and not t.get("used")), None)


def recovery_odds(doc: dict, facts: RecoveryFacts) -> list[str]:
    a, player, key, rec, boom, mods = _recovery_setup(doc, facts)
    rows = tables_of(doc).recovery_rows()
    lines = [odds_line(f"Recovery of {rec['label']}", rows, 12, mods)]
    trait = lucky(doc, rec)
    if trait:
        lost = sum((p for r, p in table_odds(rows, 12, sum(m.amount for m in mods)) if r.key == "lost"), Fraction(0))
        lines.append(f"{trait['name']}: rolls again if lost (once per campaign): lost after both {percent(lost * lost)}")
    return lines


def resolve_recovery(doc: dict, facts: RecoveryFacts, dice) -> Result:
    a, player, key, rec, boom, mods = _recovery_setup(doc, facts)
    t, b = tables_of(doc), builder(doc)
    base = ("rosters", player, "rigs", key)
    r = roll_on(dice, t.recovery_rows(), 12, f"recovery roll for {rec['label']} (campaign table)", mods)
    rolled, notes = [r.die], []
    traits = list(rec["traits"])
    trait = lucky(doc, rec)
    if r.row.key == "lost" and trait:
        notes.append(f"{trait['name']}: {r.total} would lose it; it rolls again (once per campaign).")
        r = roll_on(dice, t.recovery_rows(), 12, f"recovery roll again for {rec['label']} ({trait['name']})", mods)
        rolled.append(r.die)
        traits = [dict(x, used=True) if x["name"] == trait["name"] else x for x in traits]
        b.set(base + ("traits",), traits, f"{rec['label']}: {trait['name']} used")
    if r.row.key == "lost":
        b.set(base + ("status",), "lost", f"{rec['label']}: lost for good")
        summary = f"{rec['label']} is lost ({r.total}: {r.row.text})"
    else:
        b.set(base + ("status",), "active", f"{rec['label']}: recovered")
        summary = f"{rec['label']} is recovered ({r.total}: {r.row.text})"
        if r.row.key == "recovered_with_trait":
            tr = roll_on(dice, [Row(x.roll, str(x.roll), x.name) for x in t.repair_traits], 12,
                         f"repair trait for {rec['label']} (campaign table)")
            rolled.append(tr.die)
            trait = t.trait(tr.die.value)
            traits = traits + [{"name": trait.name, "effect": trait.effect, "negative": trait.negative,
                                "ignored": False, "from": f"Aftermath {a['step']}", "apply": dict(trait.apply)}]
            b.set(base + ("traits",), traits, f"{rec['label']}: repair trait {trait.name} ({trait.effect})")
            summary += f", with {trait.name}"
        # A wrecked location is patched to 1 SP of what it has with its traits, the new one included
        # (Patched Hull leaves a Hull of 3 two SP: patched, it has lost one).
        top = structure_with_traits(dict(rec, traits=traits), t)
        patched = {loc: min(n, top[loc] - 1) for loc, n in rec["damage"].items()}
        b.set(base + ("damage",), patched, f"{rec['label']}: wrecked locations patched to 1 SP")
        h = dict(rec["history"], recovered=rec["history"]["recovered"] + 1)
        b.set(base + ("history",), h, f"{rec['label']}: recovered {counted(h['recovered'], 'time')}")
    b.set(("aftermath", "pending_recovery"), [x for x in a["pending_recovery"] if x != facts.rig],
          f"{rec['label']}: recovery roll made")
    b.set(("aftermath", "recovery", facts.rig), {"total": r.total, "outcome": r.row.key, "name": rec["label"]},
          f"Recovery of {rec['label']}: {r.total}")
    b.set(base + ("service",), rec["service"] + [f"Aftermath {a['step']}: {summary}"], f"{rec['label']}: {summary}")
    if facts.exploded is not None and facts.exploded != (facts.rig in a["exploded"]):
        notes.append("The players' call on whether it exploded differs from the engagement's record.")
    return Result("recovery_roll", summary, dice=tuple(rolled), modifiers=tuple(mods), changes=b.changes,
                  notes=tuple(notes), data={"outcome": r.row.key, "total": r.total})


RECOVERY = ActionSpec("recovery_roll", "Recovery roll", RecoveryFacts, resolve_recovery, recovery_odds)


# --- 3. salvage --------------------------------------------------------------------------------

class SalvageFacts(StepFacts):
    player: str = Field(title="Player", max_length=4, **PLAYER)


def _salvage_mods(doc: dict) -> list[Modifier]:
    field = open_aftermath(doc).get("battlefield") or {}
    return [Modifier(field["salvage"], f"Battlefield: {field['name']}", "salvage")] if field.get("salvage") else []


def salvage_odds(doc: dict, facts: SalvageFacts) -> list[str]:
    t = tables_of(doc)
    lines = [odds_line("Each salvage roll", t.salvage_rows(), 12, _salvage_mods(doc))]
    extra = "campaign_salvage_rolls" in squadron_cards(doc, facts.player)
    lines.append(counted(t.salvage_rolls, "roll") + (" and D3 more (Battlefield Recovery Rig): 1, 2 or 3 more, "
                                                  "each " + percent(table_odds([Row(1, '', '')], 3)[0][1])
                                                  if extra else ""))
    return lines


def resolve_salvage(doc: dict, facts: SalvageFacts, dice) -> Result:
    a, t, b = open_aftermath(doc), tables_of(doc), builder(doc)
    if facts.player not in doc["players"]:
        raise RuleError(f"There is no player “{facts.player}”.")
    if facts.player in a["salvage"]:
        raise RuleError(f"{doc['players'][facts.player]['name']} has made this Aftermath's salvage rolls already.")
    mods, rolled, mod_list = _salvage_mods(doc), [], []
    count = t.salvage_rolls
    if "campaign_salvage_rolls" in squadron_cards(doc, facts.player):
        die, more = roll_d3(dice, "Battlefield Recovery Rig: extra salvage rolls")
        rolled.append(die)
        count += more
        mod_list.append(Modifier(more, "Battlefield Recovery Rig: D3 more salvage rolls", "salvage rolls"))
    gained, found = 0, []
    for i in range(count):
        r = roll_on(dice, t.salvage_rows(), 12, f"salvage roll {i + 1} (campaign table)", mods)
        rolled.append(r.die)
        gained += int(r.row.key)
        found.append(f"{r.total}: {r.row.text}")
    name = doc["players"][facts.player]["name"]
    iron = doc["players"][facts.player]["iron"]
    b.set(("players", facts.player, "iron"), iron + gained, f"{name}: Iron {iron} → {iron + gained} (salvage)")
    b.set(("aftermath", "salvage", facts.player), {"rolls": count, "iron": gained}, f"{name}: salvage rolls made")
    return Result("salvage_roll", f"{name} salvages {gained} Iron from {counted(count, 'roll')}", dice=tuple(rolled),
                  modifiers=tuple(mod_list + mods), changes=b.changes, notes=tuple(found),
                  data={"iron": gained, "rolls": count})


SALVAGE = ActionSpec("salvage_roll", "Salvage rolls", SalvageFacts, resolve_salvage, salvage_odds)


# --- 4. experience and rewards -------------------------------------------------------------------

class ExperienceFacts(StepFacts):
    pass


def resolve_experience(doc: dict, facts: ExperienceFacts, dice) -> Result:
    a, t, b = open_aftermath(doc), tables_of(doc), builder(doc)
    if a["experience"]:
        raise RuleError("Experience and rewards for this engagement are already given.")
    xp, notes = t.experience, []
    winner = a["winner"]
    for r in a["report"]["rigs"].values():
        player, key, rec = roster_rig(doc, r["roster"])
        parts = [(xp.took_part, "took part")]
        if not r["destroyed"]:
            parts.append((xp.survived, "survived"))
        if r["kills"]:
            parts.append((xp.per_kill * r["kills"], counted(r['kills'], 'kill')))
        if winner == player:
            parts.append((xp.on_winning_side, "on the winning side"))
        gain = sum(n for n, _ in parts)
        new = rec["xp"] + gain
        b.set(("rosters", player, "rigs", key, "xp"), new,
              f"{rec['label']}: experience {rec['xp']} → {new} ({', '.join(f'+{n} {w}' for n, w in parts if n)})")
        if t.rank(new) != t.rank(rec["xp"]):
            notes.append(f"{rec['label']} is now {t.rank(new)}.")
    for p, info in doc["players"].items():
        outcome = "draw" if winner in (None, "draw") else ("win" if winner == p else "loss")
        reward = getattr(t.rewards, outcome)
        b.set(("players", p, "iron"), info["iron"] + reward,
              f"{info['name']}: Iron {info['iron']} → {info['iron'] + reward} (reward for a {outcome})")
    b.set(("aftermath", "experience"), True, "Experience and rewards given")
    return Result("experience", "Experience and rewards given", changes=b.changes, notes=tuple(notes))


EXPERIENCE = ActionSpec("experience", "Experience and rewards", ExperienceFacts, resolve_experience, rolls_dice=False)


# --- 6. close ----------------------------------------------------------------------------------

class CloseFacts(StepFacts):
    pass


def missing_steps(doc: dict) -> list[str]:
    a = open_aftermath(doc)
    out = [f"recovery roll for {roster_rig(doc, ref)[2]['label']}" for ref in a["pending_recovery"]]
    out += [f"salvage rolls for {doc['players'][p]['name']}" for p in doc["players"] if p not in a["salvage"]]
    if not a["experience"]:
        out.append("experience and rewards")
    return out


def resolve_close(doc: dict, facts: CloseFacts, dice) -> Result:
    a = open_aftermath(doc)
    missing = missing_steps(doc)
    if missing:
        raise RuleError("The Aftermath is not finished: still to do — " + "; ".join(missing) + ".")
    b = builder(doc)
    b.set(("games", a["step"], "status"), "done", f"Engagement {a['step']}: Aftermath closed")
    b.set(("games", a["step"], "aftermath"), {"recovery": a["recovery"], "salvage": a["salvage"]},
          f"Engagement {a['step']}: its Aftermath kept")
    b.set(("next",), {"engagement": None, "deployment": None, "battlefield": None}, "Next engagement: to choose")
    b.set(("aftermath",), None, "Aftermath closed")
    return Result("close_aftermath", f"Aftermath of engagement {a['step']} closed: the rosters are ready",
                  changes=b.changes)


CLOSE = ActionSpec("close_aftermath", "Close the Aftermath", CloseFacts, resolve_close, rolls_dice=False)

CATALOGUE = (BEGIN, RECOVERY, SALVAGE, EXPERIENCE, CLOSE)
