file(REMOVE_RECURSE
  "CMakeFiles/test_transfer_copy.dir/tests/transfer_copy.c.o"
  "CMakeFiles/test_transfer_copy.dir/tests/transfer_copy.c.o.d"
  "test_transfer_copy"
  "test_transfer_copy.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_transfer_copy.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
