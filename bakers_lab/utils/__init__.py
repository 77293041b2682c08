"""What every layer uses: argument checks that name the parameter and what is
allowed (:mod:`~bakers_lab.utils.validate`), and numbers and words as people read them
(:mod:`~bakers_lab.utils.present`).  Imports nothing else of the package."""
