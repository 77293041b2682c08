"""What people look at: charts (matplotlib), reports, widgets (ipywidgets) and the
web app (Voila).  Imports every layer below it; nothing below imports it."""
