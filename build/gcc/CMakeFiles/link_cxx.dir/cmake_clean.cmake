file(REMOVE_RECURSE
  "CMakeFiles/link_cxx.dir/tests/link/cxx.cpp.o"
  "CMakeFiles/link_cxx.dir/tests/link/cxx.cpp.o.d"
  "link_cxx"
  "link_cxx.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/link_cxx.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
