# Empty dependencies file for link_static.
# This may be replaced when dependencies are built.
