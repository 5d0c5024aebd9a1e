file(REMOVE_RECURSE
  "CMakeFiles/test_map_buffer.dir/tests/map_buffer.c.o"
  "CMakeFiles/test_map_buffer.dir/tests/map_buffer.c.o.d"
  "test_map_buffer"
  "test_map_buffer.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_map_buffer.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
