file(REMOVE_RECURSE
  "CMakeFiles/test_image_create.dir/tests/image_create.c.o"
  "CMakeFiles/test_image_create.dir/tests/image_create.c.o.d"
  "test_image_create"
  "test_image_create.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_image_create.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
