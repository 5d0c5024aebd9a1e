file(REMOVE_RECURSE
  "CMakeFiles/link_two_units.dir/tests/link/impl_unit.c.o"
  "CMakeFiles/link_two_units.dir/tests/link/impl_unit.c.o.d"
  "CMakeFiles/link_two_units.dir/tests/link/user_unit.c.o"
  "CMakeFiles/link_two_units.dir/tests/link/user_unit.c.o.d"
  "link_two_units"
  "link_two_units.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/link_two_units.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
