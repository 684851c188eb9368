#include "sim/runtime/errors.hpp"

#include <iterator>

namespace h2d::sim {
namespace {

struct ErrorRow {
  cudaError_t error;
  const char* name;
  const char* message;
};

#define H2D_SIM_ERROR(enumerator, message) {enumerator, #enumerator, message},
constexpr ErrorRow kErrors[] = {
#include "sim/runtime/error_table.inc"
};
#undef H2D_SIM_ERROR

const ErrorRow* find(cudaError_t error) {
  for (const ErrorRow& row : kErrors) {
    if (row.error == error) {
      return &row;
    }
  }
  return nullptr;
}

thread_local cudaError_t thread_last_error = cudaSuccess;

}  // namespace

cudaError_t fail(cudaError_t error) {
  if (error != cudaSuccess && error != cudaErrorNotReady) {
    thread_last_error = error;
  }
  return error;
}

cudaError_t last_error(bool reset) {
  const cudaError_t error = thread_last_error;
  if (reset) {
    thread_last_error = cudaSuccess;
  }
  return error;
}

const char* error_name(cudaError_t error) {
  const ErrorRow* row = find(error);
  return row != nullptr ? row->name : "unrecognized error code";
}

const char* error_string(cudaError_t error) {
  const ErrorRow* row = find(error);
  return row != nullptr ? row->message : "unrecognized error code";
}

bool error_from_name(std::string_view name, cudaError_t& error) {
  for (const ErrorRow& row : kErrors) {
    if (name == row.name) {
      error = row.error;
      return true;
    }
  }
  return false;
}

bool is_sticky(cudaError_t error) {
  switch (error) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorHardwareStackError:
    case cudaErrorAssert:
    case cudaErrorLaunchTimeout:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

}  // namespace h2d::sim
