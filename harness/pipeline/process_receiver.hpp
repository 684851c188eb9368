#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

#include "harness/core/cancellation.hpp"
#include "harness/pipeline/batch_ticket.hpp"
#include "harness/pipeline/epoch_meter.hpp"
#include "harness/pipeline/loader_messages.hpp"
#include "harness/pipeline/pipeline_config.hpp"
#include "harness/pipeline/process_loader.hpp"
#include "harness/pipeline/slot_layout.hpp"
#include "harness/pipeline/slot_pool.hpp"
#include "harness/pipeline/stage_board.hpp"
#include "harness/pipeline/worker_processes.hpp"

namespace h2d {

// What one epoch's receiver shares with the rest of the epoch.
struct ReceiverParts {
  const PipelineConfig& config;
  const SlotLayout& layout;
  std::uint64_t first_sample;  // the epoch's first sample id
  ProcessLoader& processes;
  StageBoard& board;
  std::size_t stage;  // the receiver's row on the board
  // The slots a batch arrives in: with shm=reused a worker is told which to fill, with shm=fresh
  // its segments are mapped into one.
  SlotPool& slots;
  EpochMeter& meter;
  const Cancellation& cancel;
};

// worker=process: the main process's side of the worker processes for one epoch. Asks worker
// b % W for batch b, W x prefetch batches ahead (one more each time one arrives, as PyTorch's
// DataLoader keeps prefetch_factor batches per worker in flight), and takes each batch over as
// it arrives (the hand-off: receive, and with shm=fresh map its segments into a free slot,
// every page touched).
class ProcessReceiver {
 public:
  // Takes a batch on (pins it, queues it for the step); false when the epoch is ending.
  using Deliver = std::function<bool(BatchTicket&&)>;

  explicit ProcessReceiver(ReceiverParts parts);
  ProcessReceiver(const ProcessReceiver&) = delete;
  ProcessReceiver& operator=(const ProcessReceiver&) = delete;

  // Receives the epoch's batches in turn and hands each to `deliver`. True when they all came
  // (or the epoch was cancelled between batches), false when it stopped midway. Batches asked
  // and never received are added to the loader's `unanswered`, whatever the end.
  bool run(const Deliver& deliver);

 private:
  bool receive_all(const Deliver& deliver);
  bool ask_next();
  void note_unanswered();
  [[noreturn]] void worker_ended(std::size_t worker,
                                 std::optional<std::uint64_t> asking = std::nullopt);
  std::optional<BatchTicket> take_over(std::size_t worker, LoaderPacket& packet,
                                       EpochMeter::Interval receiving);

  ReceiverParts parts_;
  struct Asked {
    std::uint64_t batch = 0;
    std::size_t slot = 0;  // shm=reused: the ring slot it was asked into
  };
  std::uint64_t next_ask_ = 0;            // the next batch to ask for
  std::vector<std::deque<Asked>> asked_;  // per worker: asked, not received, oldest first

  void check_ring_slot(std::size_t worker, const BatchReply& reply, const Asked& asked) const;
};

}  // namespace h2d
