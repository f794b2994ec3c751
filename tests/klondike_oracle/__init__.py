"""An independent thoughtful-Klondike oracle for the tests (issue 43): its own dealer, a
simulator that replays lines, and a solver searching in C++ (oracle.cpp), sharing no code with
engine/."""

from tests.klondike_oracle.dealing import deal
from tests.klondike_oracle.layout import Position
from tests.klondike_oracle.simulator import IllegalMove, Table, replay
from tests.klondike_oracle.solver import Verdict, oracle_solve, run

__all__ = ["IllegalMove", "Position", "Table", "Verdict", "deal", "oracle_solve", "replay", "run"]
