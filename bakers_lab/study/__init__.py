"""The study of tables: deal features, surveys, statistics, loss predictors, the
strength dials, par, difficulty ratings, the claims, a person's strength, the coach.
Imports solve, files, the model and utils; never display code."""
