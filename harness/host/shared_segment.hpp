#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "harness/core/case_skipped.hpp"

namespace h2d {

// /dev/shm has less room than a loader's segments need (Docker gives containers 64 MB): the case
// cannot run on this machine as it is set up, so it is skipped with both sizes.
class SharedMemoryFull : public CaseSkipped {
 public:
  using CaseSkipped::CaseSkipped;
};

// A POSIX shared-memory segment as PyTorch's workers make one per tensor: shm_open, ftruncate,
// posix_fallocate (so a full /dev/shm fails here with SharedMemoryFull instead of a SIGBUS on first
// write). Its name is unlinked at once, so no segment outlives the processes that hold its
// descriptor, whatever kills them; the descriptor is what crosses to another process (SCM_RIGHTS).
// Move-only; closes the descriptor.
class SharedSegment {
 public:
  static SharedSegment create(std::size_t bytes);
  // Takes ownership of a descriptor received from another process.
  SharedSegment(int fd, std::size_t bytes) : fd_(fd), bytes_(bytes) {}
  SharedSegment(SharedSegment&& other) noexcept;
  SharedSegment& operator=(SharedSegment&& other) noexcept;
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;
  ~SharedSegment();

  int fd() const { return fd_; }
  std::size_t size() const { return bytes_; }
  // Throws std::runtime_error unless the descriptor is a regular file (a shared-memory segment)
  // that holds every page of size(): a shorter one maps without complaint, and the first touch
  // past its end takes SIGBUS. For a segment received from another process, before it is mapped.
  void require_mappable() const;

 private:
  int fd_ = -1;
  std::size_t bytes_ = 0;
};

// A segment mapped into this process, read-write, shared. Move-only; unmaps (or, for a mapping
// placed into a reservation, gives the range back to the reservation's PROT_NONE).
class SharedMapping {
 public:
  SharedMapping() = default;
  // Maps `segment` anywhere; `populate` maps every page now (MAP_POPULATE): the first touch is
  // paid here instead of by whoever reads it first.
  SharedMapping(const SharedSegment& segment, bool populate);
  SharedMapping(SharedMapping&& other) noexcept;
  SharedMapping& operator=(SharedMapping&& other) noexcept;
  SharedMapping(const SharedMapping&) = delete;
  SharedMapping& operator=(const SharedMapping&) = delete;
  ~SharedMapping();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// A range of address space reserved (PROT_NONE) so segments received later can be mapped at fixed
// places in it (MAP_FIXED): a loop slot keeps its address while each batch arrives in a new
// segment.
class AddressReservation {
 public:
  explicit AddressReservation(std::size_t bytes);
  AddressReservation(const AddressReservation&) = delete;
  AddressReservation& operator=(const AddressReservation&) = delete;
  ~AddressReservation();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }
  // Maps `segment` at data() + offset, replacing what was mapped there (the earlier segment's pages
  // go once no one maps them), every page populated: the receiver's map and first touch.
  void map_at(std::size_t offset, const SharedSegment& segment);

 private:
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// A process killed between shm_open and shm_unlink leaves its segment's name behind: removes the
// names SharedSegment::create made in process `pid` (once it has been reaped), or, with
// `pid` 0, those of every process that no longer runs. Returns how many it removed.
std::size_t remove_stale_segments(int pid = 0);

// Bytes /dev/shm can still take (statvfs), or SIZE_MAX where there is no /dev/shm to ask.
std::size_t shared_memory_free_bytes();
// Throws SharedMemoryFull naming both sizes when /dev/shm cannot take `needed` bytes for `what`.
void require_shared_memory(std::size_t needed, const std::string& what);
// The same skip, for /dev/shm found full later (a worker's segment did not fit mid-run): the
// sizes are those of the start-up check, with what is free now.
SharedMemoryFull shared_memory_full(std::size_t needed, const std::string& what);

}  // namespace h2d
