# Empty compiler generated dependencies file for test_pool_bins.
# This may be replaced when dependencies are built.
