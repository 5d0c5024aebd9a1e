file(REMOVE_RECURSE
  "CMakeFiles/test_svm_kernel.dir/tests/svm_kernel.c.o"
  "CMakeFiles/test_svm_kernel.dir/tests/svm_kernel.c.o.d"
  "test_svm_kernel"
  "test_svm_kernel.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_svm_kernel.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
