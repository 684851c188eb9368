#pragma once

// Which sanitizer instruments this translation unit, for code that must cooperate with it (the
// fibers tell ASan and TSan about every stack switch) or step aside (deliberate races). GCC says
// so with __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; Clang 14 defines neither and answers
// __has_feature instead (the asan and tsan presets build with Clang: CMakePresets.json).

#if defined(__SANITIZE_ADDRESS__)
#define H2D_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define H2D_ADDRESS_SANITIZER 1
#endif
#endif

#if defined(__SANITIZE_THREAD__)
#define H2D_THREAD_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define H2D_THREAD_SANITIZER 1
#endif
#endif
