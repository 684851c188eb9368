#include "harness/pipeline/process_receiver.hpp"

#include <fmt/format.h>

#include <poll.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace h2d {

using Clock = EpochMeter::Clock;

ProcessReceiver::ProcessReceiver(ReceiverParts parts) : parts_(parts) {
  asked_.assign(parts_.processes.workers->size(), {});
}

bool ProcessReceiver::run(const Deliver& deliver) {
  bool finished = false;
  try {
    finished = receive_all(deliver);
  } catch (...) {
    note_unanswered();
    throw;
  }
  note_unanswered();
  return finished;
}

// An epoch that ended early leaves batches asked of the workers, whose replies would reach the
// next epoch's receiver: the loader says so, and the next epoch refuses to start.
void ProcessReceiver::note_unanswered() {
  for (const auto& batches : asked_) {
    parts_.processes.unanswered += batches.size();
  }
}

// Asks the worker of batch next_ask_ for it (with shm=reused, into a free slot of ours). False
// when cancelled while waiting for the slot or for room in the worker's socket.
bool ProcessReceiver::ask_next() {
  const PipelineConfig& config = parts_.config;
  if (next_ask_ >= config.batches) {
    return true;
  }
  WorkerProcesses& workers = *parts_.processes.workers;
  const auto worker = static_cast<std::size_t>(next_ask_ % workers.size());
  BatchRequest request;
  request.batch = next_ask_;
  request.first_sample = parts_.first_sample;
  request.verify = config.verifies(next_ask_) ? 1 : 0;
  if (config.shm == ShmMode::reused) {
    parts_.board.set(parts_.stage, StageState::waiting_slot,
                     fmt::format("batch {}: free slot in '{}'", next_ask_, parts_.slots.name()));
    const std::optional<std::size_t> slot = parts_.slots.acquire();
    if (!slot) {
      return false;
    }
    request.slot = *slot;
  }
  // A worker that stopped reading (SIGSTOP, hung) fills its socket with requests: the send waits
  // for room only until the epoch is cancelled (the watchdog, a stop request), and says so.
  const auto give_up = [&] {
    parts_.board.set(parts_.stage, StageState::working,  // the stuck one: blocked outside the loop
                     fmt::format("batch {}: request to worker process {}, whose socket is full "
                                 "(it reads no requests)",
                                 next_ask_, worker));
    return parts_.cancel.cancelled();
  };
  try {
    if (!send_packet(workers.socket(worker), &request, sizeof request, {}, {}, give_up)) {
      return false;
    }
  } catch (const std::system_error&) {  // EPIPE: the worker is gone
    worker_ended(worker, next_ask_);
  }
  asked_[worker].push_back(Asked{next_ask_, static_cast<std::size_t>(request.slot)});
  ++next_ask_;
  return true;
}

bool ProcessReceiver::receive_all(const Deliver& deliver) {
  WorkerProcesses& workers = *parts_.processes.workers;
  const std::size_t count = workers.size();
  for (std::size_t i = 0; i < count * parts_.config.prefetch; ++i) {
    if (!ask_next()) {
      return false;
    }
  }
  std::vector<pollfd> sockets(count);
  for (std::size_t worker = 0; worker < count; ++worker) {
    sockets[worker] = pollfd{workers.socket(worker), POLLIN, 0};
  }
  LoaderPacket packet;
  std::size_t received = 0;
  while (received < parts_.config.batches && !parts_.cancel.cancelled()) {
    parts_.board.set(parts_.stage, StageState::waiting_input,
                     fmt::format("waiting for the worker processes ({} batches asked, {} received)",
                                 next_ask_, received));
    const int ready = poll(sockets.data(), sockets.size(), /*timeout ms=*/50);
    if (ready < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "poll on the worker sockets");
    }
    for (std::size_t worker = 0; ready > 0 && worker < count; ++worker) {
      if (sockets[worker].revents == 0) {
        continue;
      }
      const Clock::time_point start = Clock::now();
      if (!receive_packet(workers.socket(worker), sizeof(BatchReply), packet)) {
        worker_ended(worker);
      }
      std::optional<BatchTicket> ticket = take_over(worker, packet, {start, Clock::now()});
      if (!ticket) {
        return false;
      }
      ++received;
      if (!ask_next()) {
        return false;
      }
      if (!deliver(std::move(*ticket))) {
        return false;
      }
    }
  }
  return true;
}

// Throws for the end of `worker`'s stream: an interruption, or how it ended and the batch it was
// working on (or, found gone when asked for one, that batch).
void ProcessReceiver::worker_ended(std::size_t worker, std::optional<std::uint64_t> asking) {
  const std::deque<Asked>& asked = asked_[worker];
  std::string batch = " (it held no batch)";
  if (!asked.empty()) {
    batch = fmt::format(" while it held batch {}", asked.front().batch);
  } else if (asking) {
    batch = fmt::format(" (found gone when asked for batch {})", *asking);
  }
  parts_.processes.workers->throw_ended(worker, batch);
}

// The reply in `packet` from `worker`, received over `receiving`, as a ticket: shm=fresh maps its
// segments into a free pageable slot. The hand-off is the receive and the map, not the wait for
// the slot. nullopt when cancelled while waiting for that slot.
std::optional<BatchTicket> ProcessReceiver::take_over(std::size_t worker, LoaderPacket& packet,
                                                      EpochMeter::Interval receiving) {
  const PipelineConfig& config = parts_.config;
  const SlotLayout& layout = parts_.layout;
  std::deque<Asked>& asked = asked_[worker];
  // each region's (or the packed batch's): closed when taken over or refused
  const std::size_t expected = config.packed_members ? 1 : layout.segments();
  std::vector<SharedSegment> members;
  for (std::size_t i = 0; i < packet.fds.size(); ++i) {
    members.emplace_back(packet.fds[i], expected == 1 || i >= expected ? layout.host_bytes()
                                                                       : layout.segment_bytes(i));
  }
  packet.fds.clear();
  const auto reply = header_as<BatchReply>(packet);
  if (reply.failed == kReplySharedMemoryFull) {  // the skip the start-up check gives, mid-run
    throw shared_memory_full(parts_.processes.shared_memory_needed,
                             parts_.processes.shared_memory_use);
  }
  if (reply.failed != kReplyOk) {
    throw std::runtime_error(
        fmt::format("worker process {} failed batch {}: {}", worker, reply.batch,
                    std::string(reply.error, strnlen(reply.error, sizeof reply.error))));
  }
  if (asked.empty() || reply.batch != asked.front().batch) {
    throw std::runtime_error(
        fmt::format("worker process {} answered batch {}, asked {}", worker, reply.batch,
                    asked.empty() ? std::string("none") : std::to_string(asked.front().batch)));
  }
  if (config.shm == ShmMode::reused) {
    check_ring_slot(worker, reply, asked.front());
  }
  asked.pop_front();
  parts_.meter.worker_busy(worker, Clock::time_point(std::chrono::nanoseconds(reply.start_ns)),
                           Clock::time_point(std::chrono::nanoseconds(reply.end_ns)));
  BatchTicket ticket;
  ticket.batch = reply.batch;
  ticket.verify = config.verifies(reply.batch);
  ticket.sums = std::move(packet.words);
  ticket.bytes = layout.host_bytes();
  ticket.bus_bytes = layout.host_bytes();
  if (config.shm == ShmMode::reused) {
    ticket.slot = static_cast<std::size_t>(reply.slot);
    parts_.meter.handoff(receiving, {});
    return ticket;
  }
  if (members.size() != expected) {
    throw std::runtime_error(fmt::format("worker process {} sent batch {} in {} segments, not {}",
                                         worker, reply.batch, members.size(), expected));
  }
  for (const SharedSegment& member : members) {
    try {
      member.require_mappable();
    } catch (const std::runtime_error& error) {
      throw std::runtime_error(
          fmt::format("worker process {} sent batch {} in {}", worker, reply.batch, error.what()));
    }
  }
  parts_.board.set(parts_.stage, StageState::waiting_slot,
                   fmt::format("batch {}: free slot in '{}'", reply.batch, parts_.slots.name()));
  const std::optional<std::size_t> slot = parts_.slots.acquire();
  if (!slot) {
    return std::nullopt;
  }
  const Clock::time_point map_start = Clock::now();
  AddressReservation& into = *parts_.processes.mapping_slots[*slot];
  for (std::size_t i = 0; i < members.size(); ++i) {
    into.map_at(expected == 1 ? 0 : layout.segment_offset(i), members[i]);
  }
  parts_.meter.handoff(receiving, {map_start, Clock::now()});
  ticket.slot = *slot;
  return ticket;
}

// shm=reused: the slot a reply names is where the step will read the batch: it must be the one
// asked for (and so within the ring), or the step reads another batch's slot, or past the ring.
void ProcessReceiver::check_ring_slot(std::size_t worker, const BatchReply& reply,
                                      const Asked& asked) const {
  if (reply.slot >= parts_.slots.size() || reply.slot != asked.slot) {
    throw std::runtime_error(fmt::format(
        "worker process {} answered batch {} in ring slot {}, asked into slot {} (a ring of {})",
        worker, reply.batch, reply.slot, asked.slot, parts_.slots.size()));
  }
}

}  // namespace h2d
