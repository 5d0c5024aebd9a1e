file(REMOVE_RECURSE
  "CMakeFiles/test_cache_memoize.dir/tests/cache_memoize.c.o"
  "CMakeFiles/test_cache_memoize.dir/tests/cache_memoize.c.o.d"
  "test_cache_memoize"
  "test_cache_memoize.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_cache_memoize.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
