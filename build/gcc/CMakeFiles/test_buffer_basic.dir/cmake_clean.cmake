file(REMOVE_RECURSE
  "CMakeFiles/test_buffer_basic.dir/tests/buffer_basic.c.o"
  "CMakeFiles/test_buffer_basic.dir/tests/buffer_basic.c.o.d"
  "test_buffer_basic"
  "test_buffer_basic.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_buffer_basic.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
