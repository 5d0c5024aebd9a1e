file(REMOVE_RECURSE
  "CMakeFiles/test_characterize_fake.dir/tests/characterize_fake.c.o"
  "CMakeFiles/test_characterize_fake.dir/tests/characterize_fake.c.o.d"
  "test_characterize_fake"
  "test_characterize_fake.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_characterize_fake.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
