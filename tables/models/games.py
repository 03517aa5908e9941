"""Records of the player-vs-player games that span many rounds: a Contract Rummy game of seven deals
and a Bluffjack game played hand after hand until one player holds every chip.

A Bluffjack hand is an ordinary ``Round`` (cards, decisions, settlement, payment) linked to its
game; the game carries the stacks, the button and the odd chips from one hand to the next.  A
Contract Rummy deal has no wagers or payment, so it is a ``RummyDeal`` with its own turn actions;
the live state is rebuilt by replaying the game's deals and actions through ``tables.engine.rummy``.
Writes go through the services only (``tables.services`` and ``tables.services.rummy``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class GameState(models.TextChoices):
    PLAYING = "playing", "playing"
    OVER = "over", "over"
    ENDED = "ended", "ended early"


class RummyGame(models.Model):
    """A Contract Rummy game: players in seat order, who dealt first, and the score sheet."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="rummy_games")
    number = models.PositiveIntegerField(help_text="1, 2, ... per table")
    rule_set = models.ForeignKey("tables.RuleSet", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    rules = models.JSONField(default=dict, help_text="snapshot of the rule-set parameters in force")
    players = models.JSONField(help_text="player names in seat order, clockwise")
    first_dealer = models.CharField(max_length=40)
    state = models.CharField(max_length=10, choices=GameState.choices, default=GameState.PLAYING)
    version = models.PositiveIntegerField(default=1, help_text="bumped by every write (tablet conflict check)")
    scores = models.JSONField(default=dict, help_text="player → points per finished deal (the score sheet)")
    winners = models.JSONField(default=list)
    prompt = models.JSONField(default=dict, help_text="the engine's 'what comes next' after the last write")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="rummy_game_number_per_table"),
            models.UniqueConstraint(fields=["table"], condition=models.Q(state="playing"),
                                    name="one_rummy_game_playing_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} rummy game {self.number}"

    def totals(self) -> dict[str, int]:
        """Cumulative score per player."""
        return {p: sum(self.scores.get(p, [])) for p in self.players}


class RummyDeal(models.Model):
    """One deal of a Contract Rummy game: contract, the shuffled shoe, the hands dealt, melds, scores."""

    game = models.ForeignKey(RummyGame, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(help_text="1 to 7 (published)")
    dealer = models.CharField(max_length=40)
    contract = models.JSONField(help_text='e.g. ["set", "sequence"]')
    cards_each = models.PositiveSmallIntegerField()
    shoe_order = models.JSONField(help_text="the shuffled shoe, top card first (the record of the shuffle)")
    shuffled_by_server = models.BooleanField(default=False, help_text="False: the order came from the table")
    dealt = models.JSONField(default=dict, help_text="player → cards dealt")
    upcard = models.CharField(max_length=3, blank=True)
    melds = models.JSONField(default=list, help_text="the melds on the table: owner, kind, cards")
    scores = models.JSONField(default=dict, help_text="player → points left in hand when the deal ended")
    out = models.CharField(max_length=40, blank=True, help_text="who went out (blank: nobody)")
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="rummy_deal_number_per_game")]

    def __str__(self) -> str:
        return f"{self.game} deal {self.number}"


class RummyAction(models.Model):
    """A turn action of a deal (take/decline/claim the discard, draw, lay down, lay off, discard, ...)."""

    deal = models.ForeignKey(RummyDeal, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()
    player = models.CharField(max_length=40, blank=True, help_text="blank: the dealer (a reshuffle)")
    action = models.CharField(max_length=30)
    detail = models.JSONField(default=dict, help_text="melds, card, meld number, new stock order, scan hash")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        # By the deal's id, not "deal" (its game's, table's, pit's and casino's orderings: five joins in
        # every replay of a game, which PostgreSQL once planned so badly that a test ran for 10 minutes).
        ordering = ["deal_id", "seq"]
        constraints = [models.UniqueConstraint(fields=["deal", "seq"], name="rummy_action_seq_per_deal")]

    def __str__(self) -> str:
        return f"{self.player or 'dealer'} {self.action}"


class BluffjackGame(models.Model):
    """A Bluffjack game: the stacks, the button and the odd chips carried from hand to hand."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="bluffjack_games")
    number = models.PositiveIntegerField(help_text="1, 2, ... per table")
    players = models.JSONField(help_text="[{seat, player}] in seat order, clockwise")
    starting_stacks = models.JSONField(help_text="player → chips the dealer entered at the start")
    stacks = models.JSONField(help_text="player → chips now (after the last settled hand)")
    button = models.CharField(max_length=40, help_text="who deals the next hand")
    house = models.PositiveIntegerField(default=0)
    set_aside = models.PositiveIntegerField(default=0, help_text="no_house: chips kept for the last player left")
    carry = models.PositiveIntegerField(default=0, help_text="odd chips waiting for the next pot")
    hands_played = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=10, choices=GameState.choices, default=GameState.PLAYING)
    winner = models.CharField(max_length=40, blank=True)
    version = models.PositiveIntegerField(default=1)
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="bluffjack_game_number_per_table"),
            models.UniqueConstraint(fields=["table"], condition=models.Q(state="playing"),
                                    name="one_bluffjack_game_playing_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} bluffjack game {self.number}"
