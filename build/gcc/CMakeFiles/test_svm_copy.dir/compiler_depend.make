# Empty compiler generated dependencies file for test_svm_copy.
# This may be replaced when dependencies are built.
