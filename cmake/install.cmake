# Installation (docs/install.md), in components:
#   library  the shared and static libraries, the CMake package (find_package(mulred CONFIG):
#            mulred::mulred, mulred::mpi and their static twins) and the pkg-config files
#            (mulred.pc, mulred-mpi.pc)
#   headers  include/mulred
#   command  the mulred command, its job files and Slurm scripts
#   python   the Python module (built with -DMULRED_PYTHON=ON)
include(CMakePackageConfigHelpers)
set(MULRED_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mulred)

install(TARGETS mulred mulred_static mulred_mpi mulred_mpi_static EXPORT mulredTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT library)
install(EXPORT mulredTargets NAMESPACE mulred:: DESTINATION ${MULRED_CMAKE_DIR}
        COMPONENT library)
configure_package_config_file(cmake/mulredConfig.cmake.in
  "${CMAKE_BINARY_DIR}/cmake/mulredConfig.cmake" INSTALL_DESTINATION ${MULRED_CMAKE_DIR})
write_basic_package_version_file("${CMAKE_BINARY_DIR}/cmake/mulredConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/cmake/mulredConfig.cmake"
              "${CMAKE_BINARY_DIR}/cmake/mulredConfigVersion.cmake"
        DESTINATION ${MULRED_CMAKE_DIR} COMPONENT library)

install(DIRECTORY include/mulred DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT headers)

install(TARGETS mulred_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT command)
# the launcher wrapper that bounds how long mpirun or srun outlive a job ended by its stall watch
install(PROGRAMS slurm/mulred-launch DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT command)
install(DIRECTORY jobs slurm DESTINATION ${CMAKE_INSTALL_DATADIR}/mulred USE_SOURCE_PERMISSIONS
        COMPONENT command)

# pkg-config files: paths relative to the .pc file's own directory (${pcfiledir}), so the
# installed tree can move; any libdir depth (lib, lib64, lib/x86_64-linux-gnu). An absolute
# libdir or includedir is written as it is.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(MULRED_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH MULRED_PC_UP "/mulred-root/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/mulred-root")
  set(MULRED_PC_PREFIX "\${pcfiledir}/${MULRED_PC_UP}")
endif()
foreach(kind LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${kind}}")
    set(MULRED_PC_${kind} "${CMAKE_INSTALL_${kind}}")
  else()
    set(MULRED_PC_${kind} "\${prefix}/${CMAKE_INSTALL_${kind}}")
  endif()
endforeach()
# The MPI implementation's own pkg-config module: Debian's mpi-c follows the system's default MPI
# (Open MPI), so a build against MPICH (MPI_C_COMPILER=mpicc.mpich) names mpich.
set(MULRED_PC_MPI "")
set(MULRED_PC_MPI_CANDIDATES mpi-c ompi-c mpich)
if("${MPI_C_LIBRARIES};${MPI_C_COMPILER}" MATCHES "mpich")
  set(MULRED_PC_MPI_CANDIDATES mpich mpi-c)
endif()
foreach(m ${MULRED_PC_MPI_CANDIDATES})
  pkg_check_modules(MULRED_MPI_PC QUIET ${m})
  if(MULRED_MPI_PC_FOUND)
    set(MULRED_PC_MPI ${m})
    break()
  endif()
endforeach()
if(NOT MULRED_PC_MPI)
  message(WARNING "no pkg-config module for MPI (mpi-c, ompi-c, mpich): mulred-mpi.pc lacks it")
endif()
foreach(pc mulred mulred-mpi)
  configure_file(cmake/${pc}.pc.in "${CMAKE_BINARY_DIR}/${pc}.pc" @ONLY)
  install(FILES "${CMAKE_BINARY_DIR}/${pc}.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
          COMPONENT library)
endforeach()
