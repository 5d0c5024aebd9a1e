file(REMOVE_RECURSE
  "CMakeFiles/test_map_image.dir/tests/map_image.c.o"
  "CMakeFiles/test_map_image.dir/tests/map_image.c.o.d"
  "test_map_image"
  "test_map_image.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_map_image.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
