#include "sim/runtime/transfer.hpp"

#include <algorithm>
#include <utility>

#include "sim/runtime/clock.hpp"
#include "sim/runtime/runtime_call.hpp"

namespace h2d::sim {

std::vector<TransferLeg> legs_of(const Runtime& runtime, const CopyRoute& route) {
  Device* source = runtime.device(route.source.device);
  Device* destination = runtime.device(route.destination.device);
  auto leg = [](Device& device, Direction direction, bool pageable) {
    return TransferLeg{&device.engine(direction), device.bytes_per_s(direction, pageable),
                       device.uplinks(direction)};
  };
  switch (route.kind) {
    case 1:
      return {leg(*destination, Direction::h2d, route.source.pageable())};
    case 2:
      return {leg(*source, Direction::d2h, route.destination.pageable())};
    case 3:
      if (source == destination) {
        return {};
      }
      if (runtime.peer_path(source->ordinal(), destination->ordinal())) {
        TransferLeg direct = leg(*source, Direction::d2h, false);
        direct.bytes_per_s =
            std::min(direct.bytes_per_s, destination->bytes_per_s(Direction::h2d, false));
        direct.uplinks.clear();  // peer traffic turns at the switch, below the uplink
        return {direct};
      }
      return {leg(*source, Direction::d2h, false), leg(*destination, Direction::h2d, false)};
    default:
      return {};
  }
}

Work transfer_work(Transfer transfer, std::uint64_t latency_ns) {
  Work work;
  work.run = [transfer = std::move(transfer), latency_ns](std::uint64_t ready_ns) {
    std::uint64_t landed = 0;
    const auto land = [&transfer, &landed](std::uint64_t carried) {
      if (carried <= landed) {
        return;
      }
      transfer.land(landed, carried);
      landed = carried;
      if (landed == transfer.bytes && transfer.corrupt_byte != nullptr) {
        *transfer.corrupt_byte ^= 0xff;
      }
    };
    std::uint64_t start_ns = ready_ns;
    std::uint64_t end_ns = ready_ns;
    for (std::size_t i = 0; i < transfer.legs.size(); ++i) {
      const TransferLeg& leg = transfer.legs[i];
      const bool last = i + 1 == transfer.legs.size();
      const auto span =
          leg.engine->carry(leg, transfer.bytes, end_ns, latency_ns, i == 0 ? transfer.stall_ns : 0,
                            last ? CopyEngine::Carried(land) : nullptr);
      start_ns = i == 0 ? span.start_ns : start_ns;
      end_ns = span.end_ns;
    }
    if (transfer.legs.empty()) {
      if (transfer.stall_ns > 0) {
        end_ns = std::max(ready_ns, clock_ns()) + transfer.stall_ns;
        sleep_until_ns(end_ns);
      }
      land(transfer.bytes);
    }
    Activity activity;
    activity.type = transfer.activity;
    activity.start_ns = start_ns;
    activity.end_ns = end_ns;
    activity.device = transfer.device;
    activity.stream_id = transfer.stream_id;
    activity.correlation_id = transfer.correlation_id;
    activity.bytes = transfer.bytes;
    activity.copy_kind = transfer.route.kind;
    activity.source = transfer.route.source.memory;
    activity.destination = transfer.route.destination.memory;
    record_activity(std::move(activity));
    return end_ns;
  };
  return work;
}

}  // namespace h2d::sim
