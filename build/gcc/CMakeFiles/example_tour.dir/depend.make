# Empty dependencies file for example_tour.
# This may be replaced when dependencies are built.
