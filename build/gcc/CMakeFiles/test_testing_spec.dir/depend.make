# Empty dependencies file for test_testing_spec.
# This may be replaced when dependencies are built.
