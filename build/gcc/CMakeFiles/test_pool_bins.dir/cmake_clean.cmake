file(REMOVE_RECURSE
  "CMakeFiles/test_pool_bins.dir/tests/pool_bins.c.o"
  "CMakeFiles/test_pool_bins.dir/tests/pool_bins.c.o.d"
  "test_pool_bins"
  "test_pool_bins.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pool_bins.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
