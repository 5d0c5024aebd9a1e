# Empty dependencies file for test_image_create.
# This may be replaced when dependencies are built.
