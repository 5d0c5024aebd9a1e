# Empty dependencies file for test_cache_memoize.
# This may be replaced when dependencies are built.
