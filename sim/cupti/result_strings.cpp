// cuptiGetResultString: the names CUPTI gives its results, for the results the sim returns and
// the common ones a client may pass.

#include <cupti.h>

CUptiResult CUPTIAPI cuptiGetResultString(CUptiResult result, const char** str) {
  if (str == nullptr) {
    return CUPTI_ERROR_INVALID_PARAMETER;
  }
  switch (result) {
#define H2D_RESULT(name) \
  case name:             \
    *str = #name;        \
    return CUPTI_SUCCESS;
    H2D_RESULT(CUPTI_SUCCESS)
    H2D_RESULT(CUPTI_ERROR_INVALID_PARAMETER)
    H2D_RESULT(CUPTI_ERROR_INVALID_DEVICE)
    H2D_RESULT(CUPTI_ERROR_INVALID_CONTEXT)
    H2D_RESULT(CUPTI_ERROR_INVALID_KIND)
    H2D_RESULT(CUPTI_ERROR_INVALID_OPERATION)
    H2D_RESULT(CUPTI_ERROR_OUT_OF_MEMORY)
    H2D_RESULT(CUPTI_ERROR_MAX_LIMIT_REACHED)
    H2D_RESULT(CUPTI_ERROR_NOT_INITIALIZED)
    H2D_RESULT(CUPTI_ERROR_NOT_COMPATIBLE)
    H2D_RESULT(CUPTI_ERROR_NOT_SUPPORTED)
    H2D_RESULT(CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    H2D_RESULT(CUPTI_ERROR_UNKNOWN)
#undef H2D_RESULT
    default:
      *str = nullptr;
      return CUPTI_ERROR_INVALID_PARAMETER;
  }
}
