# Empty dependencies file for example_characterize.
# This may be replaced when dependencies are built.
