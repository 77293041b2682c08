"""The files people bring and keep: PySolFC's saves and statistics (read with an
allow-list, never unpickled as they are), the journal of games played in the app, user
files, the survey tables on disk and where they are.  Imports the model and utils."""
