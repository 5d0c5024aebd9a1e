file(REMOVE_RECURSE
  "CMakeFiles/test_pool_threads.dir/tests/pool_threads.c.o"
  "CMakeFiles/test_pool_threads.dir/tests/pool_threads.c.o.d"
  "test_pool_threads"
  "test_pool_threads.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pool_threads.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
