# Empty dependencies file for test_svm_kernel.
# This may be replaced when dependencies are built.
