# Empty compiler generated dependencies file for test_transfer_copy.
# This may be replaced when dependencies are built.
