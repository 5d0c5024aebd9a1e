file(REMOVE_RECURSE
  "CMakeFiles/example_characterize.dir/examples/characterize.c.o"
  "CMakeFiles/example_characterize.dir/examples/characterize.c.o.d"
  "example_characterize"
  "example_characterize.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/example_characterize.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
