# Empty dependencies file for test_image_format.
# This may be replaced when dependencies are built.
