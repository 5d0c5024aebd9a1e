file(REMOVE_RECURSE
  "CMakeFiles/link_static.dir/tests/link/static_a.c.o"
  "CMakeFiles/link_static.dir/tests/link/static_a.c.o.d"
  "CMakeFiles/link_static.dir/tests/link/static_b.c.o"
  "CMakeFiles/link_static.dir/tests/link/static_b.c.o.d"
  "link_static"
  "link_static.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/link_static.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
