file(REMOVE_RECURSE
  "CMakeFiles/test_characterize_device.dir/tests/characterize_device.c.o"
  "CMakeFiles/test_characterize_device.dir/tests/characterize_device.c.o.d"
  "test_characterize_device"
  "test_characterize_device.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_characterize_device.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
