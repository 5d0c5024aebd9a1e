# Empty dependencies file for test_map_image.
# This may be replaced when dependencies are built.
