file(REMOVE_RECURSE
  "CMakeFiles/example_tour.dir/examples/tour.c.o"
  "CMakeFiles/example_tour.dir/examples/tour.c.o.d"
  "example_tour"
  "example_tour.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/example_tour.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
