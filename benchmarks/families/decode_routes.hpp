#pragma once

// h2d/decode's routes: what crosses the bus for a batch of JPEG tiles, and the host and device
// work around it. The family (decode_family.cpp) times batches, normalizes on the device where a
// route sends pixels, and checks the floats that arrived; a route says only what differs.

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/core/sample_series.hpp"
#include "harness/core/sample_shape.hpp"
#include "harness/cuda/device_buffer.hpp"
#include "harness/cuda/nvjpeg/gpu_jpeg_decoder.hpp"
#include "harness/cuda/stream.hpp"
#include "harness/decode/image_set.hpp"

namespace h2d {

// What crosses the bus: float32 normalized on the host, uint8 pixels, or the JPEG bytes.
enum class Route { cpu_float32, cpu_uint8, jpeg };

// A batch of tiles as every route sees it: sample i is images[i], decoded to uint8 H×W×C.
struct DecodeBatch {
  int device = 0;
  std::vector<const JpegImage*> images;
  SampleShape shape;
  std::size_t threads = 1;  // of the host decode and normalize

  std::size_t size() const { return images.size(); }
  std::size_t sample_bytes() const { return shape.values(); }
  std::size_t pixel_bytes() const { return size() * sample_bytes(); }
  std::size_t float_bytes() const { return pixel_bytes() * sizeof(float); }
  std::size_t jpeg_bytes() const;
};

class DecodeRoute {
 public:
  virtual ~DecodeRoute() = default;

  // The bytes of `batch` that cross the bus each batch: the pinned staging buffer's size.
  virtual std::size_t bus_bytes(const DecodeBatch& batch) const = 0;
  // Allocates what the route needs beside the family's pinned `staging` buffer (of bus_bytes);
  // `batch` and `staging` must outlive the route's use.
  virtual void prepare(const DecodeBatch& batch, std::byte* staging) = 0;
  // nvJPEG may wait on its own work inside its call: such a route is never timed behind a latch.
  virtual bool may_latch() const = 0;
  // The host's part of one batch, ending in the staging buffer; returns the CPU decode's seconds
  // (0 when the route decodes on the device).
  virtual double host_part() = 0;
  // Enqueues on `stream` what brings the batch onto the device: `floats` when the host normalized
  // (device_pixels() is nullptr), else the uint8 pixels the family's kernel normalizes into them.
  virtual void enqueue_to_device(const DeviceBuffer& floats, cudaStream_t stream) = 0;
  virtual const DeviceBuffer* device_pixels() const { return nullptr; }
  // After the warm-up batch: remembers what a device decode made (every timed batch must make the
  // same), then zeroes what the timed batches write.
  virtual void after_warm_up(const Stream& stream) = 0;
  // One timed batch's figures: `host_decode` seconds of CPU decode, `to_device` seconds until the
  // pixels or floats were on the device.
  virtual void add_figures(SampleSeries& figures, double host_decode, double to_device) const = 0;
  // The pixels the floats on the device must be the normalize of: `reference` (libjpeg-turbo's)
  // for a host decode; the device's own, checked against the warm-up's, for nvJPEG's.
  virtual std::vector<std::uint8_t> pixels_to_check(const std::vector<std::uint8_t>& reference,
                                                    const Stream& stream) = 0;
  // The route's own counters, from the batch figures.
  virtual void write_counters(benchmark::State& state, const SampleSeries& series) const = 0;
};

// Throws CaseSkipped at once, before anything is allocated, when the route needs nvJPEG (or its
// hardware engine) and this build or GPU has none.
std::unique_ptr<DecodeRoute> make_decode_route(Route route, JpegBackend backend, int device);

}  // namespace h2d
