# Shared build settings: one INTERFACE target that every project target links.
add_library(tkm_common_cfg INTERFACE)
target_compile_features(tkm_common_cfg INTERFACE cxx_std_20)
target_compile_options(tkm_common_cfg INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wno-missing-field-initializers>)
target_compile_definitions(tkm_common_cfg INTERFACE
  QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_NO_URL_CAST_FROM_STRING QT_USE_QSTRINGBUILDER
  TKM_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
  TKM_CONTENT_DIR="${PROJECT_SOURCE_DIR}/content")
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "Build type" FORCE)
endif()
# Executables land in one folder so tests and the app find tkm-run beside them.
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/bin")

# tkm_add_test(NAME name SOURCES a.cpp ... LIBS x y [LABELS gpu] [TIMEOUT s] [GTEST] [QT])
#   One executable per test file; add_test with a timeout. QT tests run offscreen.
function(tkm_add_test)
  cmake_parse_arguments(T "GTEST;QT" "NAME;TIMEOUT" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE tkm_common_cfg ${T_LIBS})
  if(T_GTEST)
    target_link_libraries(${T_NAME} PRIVATE GTest::gtest GTest::gtest_main GTest::gmock)
  endif()
  set_target_properties(${T_NAME} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/tests")
  set(args ${T_ARGS})
  if(T_QT)
    list(APPEND args -platform offscreen)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_NAME} ${args})
  set(env "TKM_CONTENT_DIR=${PROJECT_SOURCE_DIR}/content;TKM_TEST_DATA=${PROJECT_SOURCE_DIR}/tests/data;QT_QPA_PLATFORM=offscreen")
  if(TARGET tkm-run)
    list(APPEND env "TKM_RUN=$<TARGET_FILE:tkm-run>")
  endif()
  set_tests_properties(${T_NAME} PROPERTIES TIMEOUT ${T_TIMEOUT})
  set_property(TEST ${T_NAME} PROPERTY ENVIRONMENT ${env})
  if(T_LABELS)
    set_property(TEST ${T_NAME} PROPERTY LABELS ${T_LABELS})
  endif()
  if("gpu" IN_LIST T_LABELS)
    # GPU tests print "SKIPPED: ..." and exit 77 when no GPU is present.
    set_property(TEST ${T_NAME} PROPERTY SKIP_RETURN_CODE 77)
  endif()
endfunction()
