# Empty dependencies file for test_map_buffer.
# This may be replaced when dependencies are built.
