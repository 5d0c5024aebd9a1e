file(REMOVE_RECURSE
  "CMakeFiles/test_image_format.dir/tests/image_format.c.o"
  "CMakeFiles/test_image_format.dir/tests/image_format.c.o.d"
  "test_image_format"
  "test_image_format.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_image_format.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
