# Empty dependencies file for test_buffer_basic.
# This may be replaced when dependencies are built.
