# Empty dependencies file for test_base_errors.
# This may be replaced when dependencies are built.
