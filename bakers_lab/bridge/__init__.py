"""Where bakers_lab meets the programs people already use.

- :mod:`.fcsolve`: ``bakers-lab fc-solve``, Freecell Solver's command line as PySolFC
  speaks it, answered by this toolkit's solver for the Baker's Dozen family (and
  handed to the real ``fc-solve`` for every other game);
- :mod:`.pysolfc`: ``bakers-lab pysolfc``, the player's own PySolFC started with
  ``bakers-lab fc-solve`` as its ``fc-solve``, so that its Solver menu appears and answers;
- :mod:`.serve`: the solver kept loaded by ``bakers-lab pysolfc`` while PySolFC runs,
  which each ``bakers-lab fc-solve`` PySolFC starts asks.
"""
