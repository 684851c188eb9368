#pragma once

namespace h2d {

// Student's t distribution with `df` degrees of freedom (any df > 0, not only whole numbers).
// Pure arithmetic, for compare's run-to-run test.

// P(T > t). Throws std::invalid_argument for df <= 0 or a NaN t.
double student_t_upper_tail(double t, double df);

// The t with P(T > t) = upper_tail, for 0 < upper_tail < 1. Throws std::invalid_argument outside.
double student_t_quantile_upper(double upper_tail, double df);

}  // namespace h2d
