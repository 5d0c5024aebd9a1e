# Empty dependencies file for test_characterize_fake.
# This may be replaced when dependencies are built.
