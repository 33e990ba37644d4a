"""Who sits where: the four seats of a game, filled by agents. The match asks them for moves;
``runner.play_game`` plays a game between them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import Team
from .errors import ConfigError
from .protocols import Guesser, Spymaster
from .rules import Variant


@dataclass(frozen=True)
class Seats:
    """Who sits where. Build with ``standard``, ``three_player`` or ``coop``, or from agent
    factories with ``for_variant``."""

    red_spymaster: Spymaster
    red_guesser: Guesser
    blue_spymaster: Spymaster
    blue_guesser: Guesser

    @classmethod
    def standard(cls, *, red_spymaster: Spymaster, red_guesser: Guesser,
                 blue_spymaster: Spymaster, blue_guesser: Guesser) -> Seats:
        return cls(red_spymaster, red_guesser, blue_spymaster, blue_guesser)

    @classmethod
    def three_player(cls, *, red_spymaster: Spymaster, blue_spymaster: Spymaster,
                     guesser: Guesser) -> Seats:
        """Two spymasters and one operative who guesses for both teams."""
        return cls(red_spymaster, guesser, blue_spymaster, guesser)

    @classmethod
    def coop(cls, *, spymaster: Spymaster, guesser: Guesser) -> Seats:
        """The two players of the co-operative variant; they play whichever team starts."""
        return cls(spymaster, guesser, spymaster, guesser)

    @classmethod
    def for_variant(cls, variant: Variant, *, spymaster: Callable[[Team], Spymaster],
                    guesser: Callable[[Team], Guesser]) -> Seats:
        """The seats ``variant`` has, each filled by calling ``spymaster(team)`` or
        ``guesser(team)`` once: standard play asks for all four seats; three-player play
        for two spymasters and one guesser (asked for ``Team.RED``) who guesses for both
        teams; co-op for one spymaster and one guesser (both asked for ``Team.RED``)."""
        if variant is Variant.COOP:
            return cls.coop(spymaster=spymaster(Team.RED), guesser=guesser(Team.RED))
        if variant is Variant.THREE_PLAYER:
            return cls.three_player(red_spymaster=spymaster(Team.RED),
                                    blue_spymaster=spymaster(Team.BLUE),
                                    guesser=guesser(Team.RED))
        return cls.standard(red_spymaster=spymaster(Team.RED), red_guesser=guesser(Team.RED),
                            blue_spymaster=spymaster(Team.BLUE), blue_guesser=guesser(Team.BLUE))

    def spymaster(self, team: Team) -> Spymaster:
        return self.red_spymaster if team is Team.RED else self.blue_spymaster

    def guesser(self, team: Team) -> Guesser:
        return self.red_guesser if team is Team.RED else self.blue_guesser

    def labelled(self) -> tuple[tuple[str, Any], ...]:
        return (("red spymaster", self.red_spymaster), ("red guesser", self.red_guesser),
                ("blue spymaster", self.blue_spymaster), ("blue guesser", self.blue_guesser))

    def check(self, variant: Variant) -> None:
        """Raise ``ConfigError`` if these seats do not fit ``variant``."""
        if variant is Variant.THREE_PLAYER and self.red_guesser is not self.blue_guesser:
            raise ConfigError("the three-player variant needs one guesser for both teams; "
                              "use Seats.three_player(...)")
        if variant is Variant.COOP and (self.red_spymaster is not self.blue_spymaster
                                        or self.red_guesser is not self.blue_guesser):
            raise ConfigError("the co-operative variant seats one spymaster and one guesser; "
                              "use Seats.coop(...)")
