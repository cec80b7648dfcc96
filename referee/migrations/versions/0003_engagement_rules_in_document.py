"""Each Of Oil and Iron engagement carries its engagement type's rules in its own document.

The engine used to read ``scenarios/oilandiron/engagements.yaml`` while it scored a round or
decided a winner; it now reads only the document (``engagement_rules``, written by ``new_game``),
so a game replays from its document and log whatever the data file says later. Engagements
stored before this revision get the rules their type had when they were played: the copy below
is the file as it stood at this revision, so running this migration later gives the same
documents whatever the file says by then.

Revision ID: 0003_engagement_rules_in_document
Revises: 0002_saved_army_lists
Created: 2026-11-24
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = '0003_engagement_rules_in_document'
down_revision: Union[str, None] = '0002_saved_army_lists'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

GAME = sa.table("game", sa.column("id", sa.Integer), sa.column("system", sa.String), sa.column("state", sa.JSON))

# scenarios/oilandiron/engagements.yaml at this revision, each type with the destroyed-Rig VP table.
RULES = {'iron_clash': {'key': 'iron_clash',
                'name': 'Iron Clash',
                'category': 'standard',
                'summary': 'Wreck the enemy squadron. Each enemy Rig destroyed scores VP by its weight '
                           'class.',
                'roles': [],
                'objectives': None,
                'hvt': False,
                'airdrop': None,
                'start_tokens': None,
                'scoring': [{'rule': 'destroyed_rig_vp',
                             'vp': None,
                             'within': None,
                             'round': None,
                             'heat': None,
                             'role': None}],
                'victory': 'most_vp',
                'tie': 'draw',
                'note': '',
                'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'high_value_target': {'key': 'high_value_target',
                       'name': 'High Value Target',
                       'category': 'standard',
                       'summary': 'Each side names its heaviest Rig as its High Value Target. The side whose '
                                  "target is still standing when the other's falls wins.",
                       'roles': [],
                       'objectives': None,
                       'hvt': True,
                       'airdrop': None,
                       'start_tokens': None,
                       'scoring': [],
                       'victory': 'last_hvt',
                       'tie': 'draw',
                       'note': '',
                       'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'point_of_control': {'key': 'point_of_control',
                      'name': 'Point of Control',
                      'category': 'standard',
                      'summary': 'Each player sets out two objectives. Every round, each Rig within 3 inches '
                                 'of an objective scores 2 VP.',
                      'roles': [],
                      'objectives': {'per_player': 2,
                                     'structure': None,
                                     'direct': None,
                                     'severe': None,
                                     'critical': None},
                      'hvt': False,
                      'airdrop': None,
                      'start_tokens': None,
                      'scoring': [{'rule': 'rig_near_objective',
                                   'vp': 2,
                                   'within': 3,
                                   'round': None,
                                   'heat': None,
                                   'role': None}],
                      'victory': 'most_vp',
                      'tie': 'draw',
                      'note': '',
                      'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'total_command': {'key': 'total_command',
                   'name': 'Total Command',
                   'category': 'standard',
                   'summary': 'Each player sets out one objective, held by whoever has more Rigs within 4 '
                              'inches. Hold both at the end of a round to win at once; otherwise the game is '
                              'drawn.',
                   'roles': [],
                   'objectives': {'per_player': 1,
                                  'structure': None,
                                  'direct': None,
                                  'severe': None,
                                  'critical': None},
                   'hvt': False,
                   'airdrop': None,
                   'start_tokens': None,
                   'scoring': [{'rule': 'control_all_objectives',
                                'vp': None,
                                'within': 4,
                                'round': None,
                                'heat': None,
                                'role': None}],
                   'victory': 'control_all_or_draw',
                   'tie': 'draw',
                   'note': '',
                   'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'push_the_line': {'key': 'push_the_line',
                   'name': 'Push the Line',
                   'category': 'standard',
                   'summary': "Every round, each Rig inside the enemy's territory scores 2 VP.",
                   'roles': [],
                   'objectives': None,
                   'hvt': False,
                   'airdrop': None,
                   'start_tokens': None,
                   'scoring': [{'rule': 'rig_in_enemy_territory',
                                'vp': 2,
                                'within': None,
                                'round': None,
                                'heat': None,
                                'role': None}],
                   'victory': 'most_vp',
                   'tie': 'draw',
                   'note': '',
                   'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'supply_airdrop': {'key': 'supply_airdrop',
                    'name': 'Supply Airdrop',
                    'category': 'standard',
                    'summary': 'At the start of round 2 a D6 places a supply drop: 1-4 in that quarter of '
                               'the table, 5-6 in the middle. Whoever has more Rigs within 3 inches of it at '
                               'the end of round 3 wins.',
                    'roles': [],
                    'objectives': None,
                    'hvt': False,
                    'airdrop': {'round': 2},
                    'start_tokens': None,
                    'scoring': [{'rule': 'control_at_round',
                                 'vp': None,
                                 'within': 3,
                                 'round': 3,
                                 'heat': None,
                                 'role': None}],
                    'victory': 'control_at_round',
                    'tie': 'draw',
                    'note': '',
                    'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'salvage_heist': {'key': 'salvage_heist',
                   'name': 'Salvage Heist',
                   'category': 'standard',
                   'summary': 'Each player sets out three salvage objectives. A Rig within 1 inch can spend '
                              'an action (2 heat) to haul salvage for 3 VP.',
                   'roles': [],
                   'objectives': {'per_player': 3,
                                  'structure': None,
                                  'direct': None,
                                  'severe': None,
                                  'critical': None},
                   'hvt': False,
                   'airdrop': None,
                   'start_tokens': None,
                   'scoring': [{'rule': 'salvage',
                                'vp': 3,
                                'within': 1,
                                'round': None,
                                'heat': 2,
                                'role': None}],
                   'victory': 'most_vp',
                   'tie': 'draw',
                   'note': '',
                   'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'sabotage': {'key': 'sabotage',
              'name': 'Sabotage',
              'category': 'standard',
              'summary': 'Each player guards three objectives (6 inches apart, 4 inches from the edge). The '
                         "first to destroy all of the enemy's objectives wins.",
              'roles': [],
              'objectives': {'per_player': 3, 'structure': 5, 'direct': 10, 'severe': 14, 'critical': 16},
              'hvt': False,
              'airdrop': None,
              'start_tokens': None,
              'scoring': [{'rule': 'destroy_all_enemy_objectives',
                           'vp': None,
                           'within': None,
                           'round': None,
                           'heat': None,
                           'role': None}],
              'victory': 'destroy_all_objectives',
              'tie': 'draw',
              'note': '',
              'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'ambush': {'key': 'ambush',
            'name': 'Ambush',
            'category': 'special',
            'summary': 'The target deploys first; the ambusher secretly notes positions near the edges. In '
                       'round 1 every Rig of the target side starts with a Brace Prepare token against the '
                       'first attack.',
            'roles': ['ambusher', 'target'],
            'objectives': None,
            'hvt': False,
            'airdrop': None,
            'start_tokens': {'role': 'target', 'token': 'Brace', 'round': 1},
            'scoring': [{'rule': 'destroyed_rig_vp',
                         'vp': None,
                         'within': None,
                         'round': None,
                         'heat': None,
                         'role': None}],
            'victory': 'most_vp',
            'tie': 'draw',
            'note': 'The summary names no victory rule for Ambush; by default destroyed Rigs score as in '
                    'Iron Clash.',
            'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'hold_the_line': {'key': 'hold_the_line',
                   'name': 'Hold the Line',
                   'category': 'special',
                   'summary': 'The defender may not leave its deployment zone. The defender wins if at least '
                              'half of its squadron survives; otherwise the attacker wins.',
                   'roles': ['attacker', 'defender'],
                   'objectives': None,
                   'hvt': False,
                   'airdrop': None,
                   'start_tokens': None,
                   'scoring': [],
                   'victory': 'defender_survives_half',
                   'tie': 'draw',
                   'note': '',
                   'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'siege': {'key': 'siege',
           'name': 'Siege',
           'category': 'special',
           'summary': 'Each player sets out three objectives (5 SP each), 5 inches apart and from the edges; '
                      'all of them count for both sides. The defender scores 2 VP per surviving objective; '
                      'the attacker 1 VP per destroyed objective and per destroyed Rig. Ties go to the '
                      'defender.',
           'roles': ['attacker', 'defender'],
           'objectives': {'per_player': 3, 'structure': 5, 'direct': 10, 'severe': 14, 'critical': 16},
           'hvt': False,
           'airdrop': None,
           'start_tokens': None,
           'scoring': [{'rule': 'surviving_objectives_vp',
                        'vp': 2,
                        'within': None,
                        'round': None,
                        'heat': None,
                        'role': 'defender'},
                       {'rule': 'destroyed_objectives_vp',
                        'vp': 1,
                        'within': None,
                        'round': None,
                        'heat': None,
                        'role': 'attacker'},
                       {'rule': 'destroyed_rigs_flat_vp',
                        'vp': 1,
                        'within': None,
                        'round': None,
                        'heat': None,
                        'role': 'attacker'}],
           'victory': 'most_vp',
           'tie': 'defender',
           'note': 'The summary gives objective damage thresholds only for Sabotage; Siege objectives use '
                   'the same (Direct 10-13, Severe 14-15, Critical 16+).',
           'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}},
 'breakthrough': {'key': 'breakthrough',
                  'name': 'Breakthrough',
                  'category': 'special',
                  'summary': 'The attacker must drive at least half of its squadron off the opposite table '
                             'edge; otherwise the defender wins.',
                  'roles': ['attacker', 'defender'],
                  'objectives': None,
                  'hvt': False,
                  'airdrop': None,
                  'start_tokens': None,
                  'scoring': [{'rule': 'exit_fraction',
                               'vp': None,
                               'within': None,
                               'round': None,
                               'heat': None,
                               'role': 'attacker'}],
                  'victory': 'attacker_exits_half',
                  'tie': 'draw',
                  'note': '',
                  'destroyed_rig_vp': {'light': 2, 'medium': 3, 'heavy': 4, 'colossal': 5}}}


def _oilandiron_games(bind):
    return bind.execute(sa.select(GAME.c.id, GAME.c.state).where(GAME.c.system == "oilandiron")).all()


def upgrade() -> None:
    bind = op.get_bind()
    for game_id, state in _oilandiron_games(bind):
        if not isinstance(state, dict) or "engagement_rules" in state:
            continue
        key = state.get("engagement_type")
        # A type this revision never knew is left without rules: the engine then says so plainly.
        if key and key not in RULES:
            continue
        new = dict(state, engagement_rules=RULES[key] if key else None)
        bind.execute(GAME.update().where(GAME.c.id == game_id).values(state=new))


def downgrade() -> None:
    bind = op.get_bind()
    for game_id, state in _oilandiron_games(bind):
        if isinstance(state, dict) and "engagement_rules" in state:
            new = {k: v for k, v in state.items() if k != "engagement_rules"}
            bind.execute(GAME.update().where(GAME.c.id == game_id).values(state=new))
