#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "harness/pipeline/pipeline_config.hpp"

namespace h2d {

// What the main process and a loader worker process say to each other over their Unix socket
// (SOCK_SEQPACKET: one send, one message). Fixed-layout structs: both ends are the same build.

// The most descriptors one message carries (the kernel takes 253 at most, SCM_MAX_FD).
inline constexpr std::size_t kLoaderMaxFds = 250;
// The most 64-bit words a message carries after its header: a verified batch's checksums, a
// start's sample.
inline constexpr std::size_t kLoaderMaxWords = 8192;

// Main -> worker, once. With shm=reused the ring's first kLoaderMaxFds segments ride along
// (SCM_RIGHTS), in slot order, and RingPart messages carry the rest.
struct LoaderStart {
  std::uint64_t seed = 0;
  std::uint64_t worker = 0;
  std::uint64_t channels = 0;
  std::uint64_t tile = 0;
  std::uint64_t batch_size = 0;
  double sample_us = 0;
  std::uint32_t decode = 0;  // DecodeMode
  std::uint32_t shm = 0;     // ShmMode
  std::uint32_t packed_members = 0;
  std::uint64_t slot_bytes = 0;
  std::uint64_t ring_slots = 0;  // shm=reused: the ring's segments, in this and the RingParts
  char image_dir[1024] = {};     // --images, empty for the generated set
  // The run's --sample in the grammar (SampleSpec::text), carried in the words after the header;
  // 0 for the tile.
  std::uint64_t sample_text_bytes = 0;
};

// Main -> worker, after the start while the ring has segments left to send: up to kLoaderMaxFds
// more ride along, from slot `first_slot` on.
struct RingPart {
  std::uint64_t first_slot = 0;
};

// The settings of `config` a worker needs, both ways: written into a start and its words by the
// main process, read back by the worker (worker=process). The image folder and slot size are set
// apart. The words carry the sample (sample_words): a sample whose text takes more than
// kLoaderMaxWords words cannot cross (sample_crosses says so first).
LoaderStart loader_start(const PipelineConfig& config, std::size_t slot_bytes);
std::vector<std::uint64_t> sample_words(const PipelineConfig& config);
bool sample_crosses(const PipelineConfig& config);
PipelineConfig config_of(const LoaderStart& start, const std::vector<std::uint64_t>& words);

// Main -> worker: produce batch `batch` (sample ids from first_sample + batch x batch_size);
// with shm=reused into ring slot `slot`.
struct BatchRequest {
  std::uint64_t batch = 0;
  std::uint64_t first_sample = 0;
  std::uint64_t slot = 0;
  std::uint32_t verify = 0;  // take per-sample checksums
};

// Why a worker could not produce a batch (BatchReply::failed).
enum ReplyFailure : std::uint32_t {
  kReplyOk = 0,
  kReplyError = 1,
  kReplySharedMemoryFull = 2,  // /dev/shm could not take the batch's segments
};

// Worker -> main: the batch is ready. shm=fresh: a descriptor a region rides along (each member's,
// then the ids', SlotLayout::segments), or one with packed members. The per-sample checksums follow
// the header in the same message (verified batches). The times are steady_clock's, which on Linux
// is CLOCK_MONOTONIC, one clock for every process of the machine.
struct BatchReply {
  std::uint64_t batch = 0;
  std::uint64_t slot = 0;
  std::int64_t start_ns = 0;
  std::int64_t end_ns = 0;
  std::uint32_t failed = 0;  // a ReplyFailure; then `error` says why and no descriptor rides along
  char error[512] = {};
  std::uint64_t sums = 0;  // checksums after the header
};

// How long a send waits for room in the peer's socket before it asks whether to give up.
inline constexpr std::chrono::milliseconds kSendWait{50};

// One message: a header, an optional tail of 64-bit words, descriptors.
struct LoaderPacket {
  std::vector<std::byte> header;
  std::vector<std::uint64_t> words;
  std::vector<int> fds;  // received ones are the caller's to close
  // Where a message's tail lands before `words` gets its length: allocated once, never cleared.
  std::unique_ptr<std::uint64_t[]> scratch;
};

// Asked while a send waits for room in the peer's socket (the peer is not reading): true gives up.
using GiveUp = std::function<bool()>;

// Sends the message. It never blocks in the kernel: while the socket's buffer is full it waits in
// steps of kSendWait, asking `give_up` before each, so a stopped or hung peer cannot hold the
// sender past the epoch's cancellation. False when it gave up before sending (a message is sent
// whole or not at all). Throws std::system_error (EPIPE when the peer is gone: no SIGPIPE).
bool send_packet(int socket, const void* header, std::size_t header_bytes,
                 const std::vector<std::uint64_t>& words = {}, const std::vector<int>& fds = {},
                 const GiveUp& give_up = {});
// Receives one message of a `header_bytes` header. False at end of stream (the peer closed or
// died); throws std::system_error for other failures and std::runtime_error for a malformed one.
bool receive_packet(int socket, std::size_t header_bytes, LoaderPacket& packet);

// The header of `packet` as T; throws std::runtime_error when its size is not T's.
template <typename T>
T header_as(const LoaderPacket& packet) {
  if (packet.header.size() != sizeof(T)) {
    throw std::runtime_error("a loader message of the wrong size");
  }
  T value;
  std::memcpy(&value, packet.header.data(), sizeof(T));
  return value;
}

}  // namespace h2d
