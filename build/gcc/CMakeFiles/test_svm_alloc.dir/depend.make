# Empty dependencies file for test_svm_alloc.
# This may be replaced when dependencies are built.
