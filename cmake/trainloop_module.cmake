# One static library per module, each allowed to see only its own headers and
# those of the modules it depends on, so an include that goes against the
# order fails to compile ("No such file"): the dependency rules of
# engine/README.md and mappers/README.md are the DEPENDS lists of
# engine/CMakeLists.txt and mappers/CMakeLists.txt, checked by the compiler.
#
# How: module M of folder F (engine/, mappers/) is the target
# ${TRAINLOOP_MODULE_PREFIX}M, compiled with one include directory of its own,
# <build>/F/module_include/M/, holding a single link M -> F/M; it links its
# DEPENDS (modules of the same folder) publicly, so it also sees their
# directories (and theirs, down the DAG), and nothing above it. LIBRARIES are
# linked publicly too (other folders' targets, packages).
#
# The graph goes to <build>/module_graph/F.txt at configure time (one line per
# module, in the order of the calls: `M: DEPENDS...`), where
# scripts/check_module_tables.py compares it with the docs' module tables.

# trainloop_module(NAME DEPENDS module... LIBRARIES target...)
function(trainloop_module name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LIBRARIES" ${ARGN})
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${name}/*.cpp)
  set(target ${TRAINLOOP_MODULE_PREFIX}${name})
  add_library(${target} STATIC ${sources})
  set(include_dir ${CMAKE_CURRENT_BINARY_DIR}/module_include/${name})
  file(MAKE_DIRECTORY ${include_dir})
  file(CREATE_LINK ${CMAKE_CURRENT_SOURCE_DIR}/${name} ${include_dir}/${name} SYMBOLIC)
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${include_dir}>)
  foreach(dep ${ARG_DEPENDS})
    if(NOT TARGET ${TRAINLOOP_MODULE_PREFIX}${dep})
      message(FATAL_ERROR "trainloop_module(${name}): DEPENDS ${dep}, which is not a module of "
                          "${folder}/ declared before it")
    endif()
    target_link_libraries(${target} PUBLIC ${TRAINLOOP_MODULE_PREFIX}${dep})
  endforeach()
  target_link_libraries(${target} PUBLIC ${ARG_LIBRARIES})
  list(JOIN ARG_DEPENDS " " deps)
  set_property(GLOBAL APPEND PROPERTY TRAINLOOP_MODULE_GRAPH_${folder} "${name}: ${deps}")
endfunction()

# Writes <build>/module_graph/F.txt for the folder that calls it, after its
# last trainloop_module().
function(trainloop_write_module_graph)
  get_filename_component(folder ${CMAKE_CURRENT_SOURCE_DIR} NAME)
  get_property(lines GLOBAL PROPERTY TRAINLOOP_MODULE_GRAPH_${folder})
  list(JOIN lines "\n" text)
  file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/module_graph/${folder}.txt
       CONTENT "# ${folder}/CMakeLists.txt's modules in order, each with its DEPENDS\n${text}\n"
       @ONLY)
endfunction()
