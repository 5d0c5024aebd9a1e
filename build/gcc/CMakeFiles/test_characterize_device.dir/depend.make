# Empty dependencies file for test_characterize_device.
# This may be replaced when dependencies are built.
