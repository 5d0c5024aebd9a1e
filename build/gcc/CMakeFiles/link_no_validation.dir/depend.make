# Empty dependencies file for link_no_validation.
# This may be replaced when dependencies are built.
