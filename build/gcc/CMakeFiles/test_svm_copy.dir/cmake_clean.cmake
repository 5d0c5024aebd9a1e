file(REMOVE_RECURSE
  "CMakeFiles/test_svm_copy.dir/tests/svm_copy.c.o"
  "CMakeFiles/test_svm_copy.dir/tests/svm_copy.c.o.d"
  "test_svm_copy"
  "test_svm_copy.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_svm_copy.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
