// The one Catch2 main for simt_tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
