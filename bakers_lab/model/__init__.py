"""The game itself: cards, rules as data, PySolFC's shuffles and deals, board text,
moves, the rule engine (:class:`~bakers_lab.model.game.GameState`), positions, and the
board's own pictures as strings.  Pure: no files, no display libraries; imports only
:mod:`bakers_lab.utils`."""
