# Empty compiler generated dependencies file for link_two_units.
# This may be replaced when dependencies are built.
