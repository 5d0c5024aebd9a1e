file(REMOVE_RECURSE
  "CMakeFiles/test_base_errors.dir/tests/base_errors.c.o"
  "CMakeFiles/test_base_errors.dir/tests/base_errors.c.o.d"
  "test_base_errors"
  "test_base_errors.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_base_errors.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
