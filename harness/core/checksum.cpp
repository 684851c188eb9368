#include "harness/core/checksum.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <future>
#include <thread>
#include <vector>

#include "harness/core/pattern.hpp"

namespace h2d {
namespace {

// Runs fn(first_word, last_word) over [0, words) split across threads; sums the results.
std::uint64_t parallel_words(std::size_t words,
                             const std::function<std::uint64_t(std::size_t, std::size_t)>& fn) {
  constexpr std::size_t kWordsPerThread = std::size_t{1} << 21;  // 16 MiB each before splitting
  const std::size_t threads = std::clamp<std::size_t>(
      words / kWordsPerThread, 1, std::max(1u, std::thread::hardware_concurrency()));
  if (threads == 1) {
    return fn(0, words);
  }
  std::vector<std::future<std::uint64_t>> parts;
  const std::size_t step = (words + threads - 1) / threads;
  for (std::size_t first = 0; first < words; first += step) {
    parts.push_back(std::async(std::launch::async, fn, first, std::min(words, first + step)));
  }
  std::uint64_t sum = 0;
  for (auto& part : parts) {
    sum += part.get();
  }
  return sum;
}

}  // namespace

void fill_pattern(void* data, std::size_t bytes, std::uint64_t seed) {
  auto* out = static_cast<unsigned char*>(data);
  parallel_words(word_count(bytes), [&](std::size_t first, std::size_t last) {
    for (std::size_t i = first; i < last; ++i) {
      const std::uint64_t word = pattern_word(seed, i);
      const std::size_t offset = i * 8;
      std::memcpy(out + offset, &word, std::min<std::size_t>(8, bytes - offset));
    }
    return std::uint64_t{0};
  });
}

std::uint64_t host_checksum(const void* data, std::size_t bytes, std::uint64_t first_word) {
  const auto* in = static_cast<const unsigned char*>(data);
  return parallel_words(word_count(bytes), [&](std::size_t first, std::size_t last) {
    std::uint64_t sum = 0;
    for (std::size_t i = first; i < last; ++i) {
      sum += checksum_term(load_word(in, bytes, i), first_word + i);
    }
    return sum;
  });
}

std::uint64_t expected_checksum(std::size_t bytes, std::uint64_t seed) {
  const std::size_t words = word_count(bytes);
  const std::size_t tail_bytes = bytes % 8;
  return parallel_words(words, [&](std::size_t first, std::size_t last) {
    std::uint64_t sum = 0;
    for (std::size_t i = first; i < last; ++i) {
      std::uint64_t word = pattern_word(seed, i);
      if (i + 1 == words && tail_bytes != 0) {
        word &= (std::uint64_t{1} << (8 * tail_bytes)) - 1;
      }
      sum += checksum_term(word, i);
    }
    return sum;
  });
}

}  // namespace h2d
