file(REMOVE_RECURSE
  "CMakeFiles/test_pool_buffer.dir/tests/pool_buffer.c.o"
  "CMakeFiles/test_pool_buffer.dir/tests/pool_buffer.c.o.d"
  "test_pool_buffer"
  "test_pool_buffer.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_pool_buffer.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
