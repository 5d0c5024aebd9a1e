# Empty dependencies file for link_cxx.
# This may be replaced when dependencies are built.
