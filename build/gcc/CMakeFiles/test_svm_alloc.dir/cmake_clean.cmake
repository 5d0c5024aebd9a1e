file(REMOVE_RECURSE
  "CMakeFiles/test_svm_alloc.dir/tests/svm_alloc.c.o"
  "CMakeFiles/test_svm_alloc.dir/tests/svm_alloc.c.o.d"
  "test_svm_alloc"
  "test_svm_alloc.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_svm_alloc.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
