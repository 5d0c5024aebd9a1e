# Empty dependencies file for test_pool_buffer.
# This may be replaced when dependencies are built.
