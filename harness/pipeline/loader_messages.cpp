#include "harness/pipeline/loader_messages.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

namespace h2d {

LoaderStart loader_start(const PipelineConfig& config, std::size_t slot_bytes) {
  LoaderStart start;
  start.seed = config.seed;
  start.channels = config.channels;
  start.tile = config.tile;
  start.batch_size = config.batch_size;
  start.sample_us = config.sample_us;
  start.decode = static_cast<std::uint32_t>(config.decode);
  start.shm = static_cast<std::uint32_t>(config.shm);
  start.packed_members = config.packed_members ? 1 : 0;
  start.slot_bytes = slot_bytes;
  start.sample_text_bytes = config.sample ? config.sample->text().size() : 0;
  return start;
}

std::vector<std::uint64_t> sample_words(const PipelineConfig& config) {
  if (!config.sample) {
    return {};
  }
  const std::string text = config.sample->text();
  std::vector<std::uint64_t> words((text.size() + 7) / 8, 0);
  std::memcpy(words.data(), text.data(), text.size());
  return words;
}

bool sample_crosses(const PipelineConfig& config) {
  return !config.sample || (config.sample->text().size() + 7) / 8 <= kLoaderMaxWords;
}

PipelineConfig config_of(const LoaderStart& start, const std::vector<std::uint64_t>& words) {
  PipelineConfig config;
  if (start.sample_text_bytes > 0) {
    if (start.sample_text_bytes > words.size() * 8) {
      throw std::runtime_error("a loader start whose sample is cut short");
    }
    const std::string text(reinterpret_cast<const char*>(words.data()),
                           static_cast<std::size_t>(start.sample_text_bytes));
    config.sample = parse_sample(text);
  }
  config.seed = start.seed;
  config.channels = start.channels;
  config.tile = start.tile;
  config.batch_size = start.batch_size;
  config.sample_us = start.sample_us;
  config.decode = static_cast<DecodeMode>(start.decode);
  config.shm = static_cast<ShmMode>(start.shm);
  config.packed_members = start.packed_members != 0;
  config.worker = WorkerKind::process;
  return config;
}

bool send_packet(int socket, const void* header, std::size_t header_bytes,
                 const std::vector<std::uint64_t>& words, const std::vector<int>& fds,
                 const GiveUp& give_up) {
  if (fds.size() > kLoaderMaxFds || words.size() > kLoaderMaxWords) {
    throw std::length_error("a loader message with too many descriptors or words");
  }
  iovec parts[2] = {
      {const_cast<void*>(header), header_bytes},
      {const_cast<std::uint64_t*>(words.data()), words.size() * sizeof(std::uint64_t)}};
  msghdr message{};
  message.msg_iov = parts;
  message.msg_iovlen = words.empty() ? 1 : 2;
  std::vector<std::byte> control;
  if (!fds.empty()) {
    control.resize(CMSG_SPACE(fds.size() * sizeof(int)));
    message.msg_control = control.data();
    message.msg_controllen = control.size();
    cmsghdr* rights = CMSG_FIRSTHDR(&message);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(fds.size() * sizeof(int));
    std::memcpy(CMSG_DATA(rights), fds.data(), fds.size() * sizeof(int));
  }
  while (sendmsg(socket, &message, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
    if (errno == EINTR) {
      continue;
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      throw std::system_error(errno, std::generic_category(), "sending a loader message");
    }
    if (give_up && give_up()) {
      return false;
    }
    pollfd room{socket, POLLOUT, 0};
    if (poll(&room, 1, static_cast<int>(kSendWait.count())) < 0 && errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "poll before a loader message");
    }
  }
  return true;
}

bool receive_packet(int socket, std::size_t header_bytes, LoaderPacket& packet) {
  packet.header.resize(header_bytes);
  packet.fds.clear();
  if (!packet.scratch) {
    packet.scratch.reset(new std::uint64_t[kLoaderMaxWords]);
  }
  iovec parts[2] = {{packet.header.data(), header_bytes},
                    {packet.scratch.get(), kLoaderMaxWords * sizeof(std::uint64_t)}};
  std::vector<std::byte> control(CMSG_SPACE(kLoaderMaxFds * sizeof(int)));
  msghdr message{};
  message.msg_iov = parts;
  message.msg_iovlen = 2;
  message.msg_control = control.data();
  message.msg_controllen = control.size();
  ssize_t received = 0;
  while ((received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC)) < 0) {
    if (errno == ECONNRESET) {
      return false;
    }
    if (errno != EINTR) {
      throw std::system_error(errno, std::generic_category(), "receiving a loader message");
    }
  }
  for (cmsghdr* part = CMSG_FIRSTHDR(&message); part != nullptr;
       part = CMSG_NXTHDR(&message, part)) {
    if (part->cmsg_level == SOL_SOCKET && part->cmsg_type == SCM_RIGHTS) {
      const std::size_t count = (part->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      const std::size_t first = packet.fds.size();
      packet.fds.resize(first + count);
      std::memcpy(packet.fds.data() + first, CMSG_DATA(part), count * sizeof(int));
    }
  }
  const auto drop_fds = [&packet] {
    for (int fd : packet.fds) {
      close(fd);
    }
    packet.fds.clear();
  };
  if (received == 0) {
    drop_fds();
    return false;
  }
  if ((message.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) != 0 ||
      static_cast<std::size_t>(received) < header_bytes ||
      (static_cast<std::size_t>(received) - header_bytes) % sizeof(std::uint64_t) != 0) {
    drop_fds();
    throw std::runtime_error("a truncated or malformed loader message");
  }
  const std::size_t words =
      (static_cast<std::size_t>(received) - header_bytes) / sizeof(std::uint64_t);
  packet.words.assign(packet.scratch.get(), packet.scratch.get() + words);
  return true;
}

}  // namespace h2d
