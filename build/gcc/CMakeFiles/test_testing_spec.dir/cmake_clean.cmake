file(REMOVE_RECURSE
  "CMakeFiles/test_testing_spec.dir/tests/testing_spec.c.o"
  "CMakeFiles/test_testing_spec.dir/tests/testing_spec.c.o.d"
  "test_testing_spec"
  "test_testing_spec.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_testing_spec.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
