#pragma once

// atomicAdd (Programming Guide, "Atomic Functions"): real atomic read-modify-writes, since the
// kernels of several streams run at once on their workers. CUDA's atomics are relaxed, so are
// these; the happens-before a host read needs comes from synchronizing with the stream.

inline int atomicAdd(int* address, int value) {
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

inline unsigned int atomicAdd(unsigned int* address, unsigned int value) {
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

inline unsigned long long int atomicAdd(unsigned long long int* address,
                                        unsigned long long int value) {
  return __atomic_fetch_add(address, value, __ATOMIC_RELAXED);
}

// No fetch-add for floating point: a compare-and-swap loop, as the Programming Guide shows for
// double on older architectures.
template <typename Float>
Float h2d_sim_atomic_add_float(Float* address, Float value) {
  Float old;
  __atomic_load(address, &old, __ATOMIC_RELAXED);
  Float sum;
  do {
    sum = old + value;
  } while (!__atomic_compare_exchange(address, &old, &sum, /*weak=*/true, __ATOMIC_RELAXED,
                                      __ATOMIC_RELAXED));
  return old;
}

inline float atomicAdd(float* address, float value) {
  return h2d_sim_atomic_add_float(address, value);
}

inline double atomicAdd(double* address, double value) {
  return h2d_sim_atomic_add_float(address, value);
}
