file(REMOVE_RECURSE
  "CMakeFiles/link_no_validation.dir/tests/link/no_validation.c.o"
  "CMakeFiles/link_no_validation.dir/tests/link/no_validation.c.o.d"
  "link_no_validation"
  "link_no_validation.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/link_no_validation.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
