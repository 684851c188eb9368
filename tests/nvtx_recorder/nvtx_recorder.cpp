// A test-only NVTX injection library: loaded by any NVTX3 program through NVTX_INJECTION64_PATH,
// it records range pushes and pops, thread and category names, domains, colours and payloads, and
// writes them as JSON at exit to the file named by H2D_NVTX_RECORD. It needs no GPU, so CI proves
// the timeline Nsight Systems users would see. See tests/nvtx_recording.hpp for the checks.
//
// The NVTX3 injection ABI (nvtx3/nvtxDetail/nvtxInit.h, nvtxImpl.h, nvtxTypes.h): on the first
// NVTX call the program dlopens the library and calls InitializeInjectionNvtx2 with its
// GetExportTable. The export table NVTX_ETID_CALLBACKS hands out one table per module (CORE,
// CORE2, ...) of pointers to the program's function pointers, indexed by callback id; the tool
// writes its own functions there. Slots it leaves alone become no-ops.

#define NVTX_NO_IMPL  // a tool: types and declarations only, no NVTX implementation of our own
#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

// The opaque handle types of NVTX are the tool's to define.
struct nvtxDomainRegistration_st {
  std::string name;
};
struct nvtxStringRegistration_st {
  std::string text;
};

namespace {

struct Event {
  std::string type;  // domain_create, name_category, name_thread, push, pop, mark
  std::string domain;
  std::uint32_t tid = 0;
  std::uint64_t t_ns = 0;
  std::string message;
  std::uint32_t category = 0;
  std::uint32_t color = 0;
  int color_type = 0;
  int payload_type = 0;
  nlohmann::json payload;
  std::uint32_t thread = 0;  // name_thread: the thread being named
};

struct Recording {
  std::mutex mutex;
  std::vector<Event> events;
};

// Never destroyed: NVTX calls made by other static destructors after ours must stay safe.
Recording& recording() {
  static Recording* const instance = new Recording;
  return *instance;
}

nvtxDomainRegistration_st* default_domain() {
  static nvtxDomainRegistration_st* const instance = new nvtxDomainRegistration_st{""};
  return instance;
}

std::uint32_t this_thread() {
  return static_cast<std::uint32_t>(syscall(SYS_gettid));
}

std::uint64_t now_ns() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch())
                                        .count());
}

std::string narrow(const wchar_t* text) {
  std::string out;
  for (; text != nullptr && *text != 0; ++text) {
    out += *text < 128 ? static_cast<char>(*text) : '?';
  }
  return out;
}

void add(Event event) {
  event.tid = this_thread();
  event.t_ns = now_ns();
  Recording& r = recording();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.events.push_back(std::move(event));
}

// Depth of open ranges per domain on this thread: what push and pop return.
int& depth(nvtxDomainHandle_t domain) {
  thread_local std::map<nvtxDomainHandle_t, int> depths;
  return depths[domain];
}

Event from_attributes(const char* type, nvtxDomainHandle_t domain,
                      const nvtxEventAttributes_t* attributes) {
  Event event;
  event.type = type;
  event.domain = domain->name;
  if (attributes == nullptr) {
    return event;
  }
  event.category = attributes->category;
  event.color_type = attributes->colorType;
  event.color = attributes->color;
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      event.message = attributes->message.ascii != nullptr ? attributes->message.ascii : "";
      break;
    case NVTX_MESSAGE_TYPE_UNICODE:
      event.message = narrow(attributes->message.unicode);
      break;
    case NVTX_MESSAGE_TYPE_REGISTERED:
      event.message =
          attributes->message.registered != nullptr ? attributes->message.registered->text : "";
      break;
    default:
      break;
  }
  event.payload_type = attributes->payloadType;
  switch (attributes->payloadType) {
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
      event.payload = attributes->payload.ullValue;
      break;
    case NVTX_PAYLOAD_TYPE_INT64:
      event.payload = attributes->payload.llValue;
      break;
    case NVTX_PAYLOAD_TYPE_DOUBLE:
      event.payload = attributes->payload.dValue;
      break;
    case NVTX_PAYLOAD_TYPE_UNSIGNED_INT32:
      event.payload = attributes->payload.uiValue;
      break;
    case NVTX_PAYLOAD_TYPE_INT32:
      event.payload = attributes->payload.iValue;
      break;
    case NVTX_PAYLOAD_TYPE_FLOAT:
      event.payload = attributes->payload.fValue;
      break;
    default:
      break;
  }
  return event;
}

int push(nvtxDomainHandle_t domain, Event event) {
  add(std::move(event));
  return depth(domain)++;
}

int pop(nvtxDomainHandle_t domain) {
  Event event;
  event.type = "pop";
  event.domain = domain->name;
  add(std::move(event));
  int& level = depth(domain);
  return level > 0 ? --level : -1;  // NVTX: negative when there was nothing to pop
}

// ---- CORE module: the API without a domain ----
void mark_ex(const nvtxEventAttributes_t* attributes) {
  add(from_attributes("mark", default_domain(), attributes));
}
void mark_a(const char* message) {
  Event event;
  event.type = "mark";
  event.message = message != nullptr ? message : "";
  add(std::move(event));
}
int range_push_ex(const nvtxEventAttributes_t* attributes) {
  return push(default_domain(), from_attributes("push", default_domain(), attributes));
}
int range_push_a(const char* message) {
  Event event;
  event.type = "push";
  event.message = message != nullptr ? message : "";
  return push(default_domain(), std::move(event));
}
int range_push_w(const wchar_t* message) {
  Event event;
  event.type = "push";
  event.message = narrow(message);
  return push(default_domain(), std::move(event));
}
int range_pop() {
  return pop(default_domain());
}
void name_category(nvtxDomainHandle_t domain, std::uint32_t category, std::string name) {
  Event event;
  event.type = "name_category";
  event.domain = domain->name;
  event.category = category;
  event.message = std::move(name);
  add(std::move(event));
}
void name_category_a(std::uint32_t category, const char* name) {
  name_category(default_domain(), category, name != nullptr ? name : "");
}
void name_category_w(std::uint32_t category, const wchar_t* name) {
  name_category(default_domain(), category, narrow(name));
}
void name_os_thread(std::uint32_t thread, std::string name) {
  Event event;
  event.type = "name_thread";
  event.thread = thread;
  event.message = std::move(name);
  add(std::move(event));
}
void name_os_thread_a(std::uint32_t thread, const char* name) {
  name_os_thread(thread, name != nullptr ? name : "");
}
void name_os_thread_w(std::uint32_t thread, const wchar_t* name) {
  name_os_thread(thread, narrow(name));
}

// ---- CORE2 module: the domain API ----
void domain_mark_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  add(from_attributes("mark", domain, attributes));
}
int domain_range_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  return push(domain, from_attributes("push", domain, attributes));
}
int domain_range_pop(nvtxDomainHandle_t domain) {
  return pop(domain);
}
void domain_name_category_a(nvtxDomainHandle_t domain, std::uint32_t category, const char* name) {
  name_category(domain, category, name != nullptr ? name : "");
}
void domain_name_category_w(nvtxDomainHandle_t domain, std::uint32_t category,
                            const wchar_t* name) {
  name_category(domain, category, narrow(name));
}
nvtxStringHandle_t domain_register_string_a(nvtxDomainHandle_t, const char* text) {
  return new nvtxStringRegistration_st{text != nullptr ? text : ""};  // lives as long as NVTX
}
nvtxStringHandle_t domain_register_string_w(nvtxDomainHandle_t, const wchar_t* text) {
  return new nvtxStringRegistration_st{narrow(text)};
}
nvtxDomainHandle_t create_domain(std::string name) {
  Event event;
  event.type = "domain_create";
  event.domain = name;
  add(std::move(event));
  return new nvtxDomainRegistration_st{std::move(name)};  // handles live as long as the process
}
nvtxDomainHandle_t domain_create_a(const char* name) {
  return create_domain(name != nullptr ? name : "");
}
nvtxDomainHandle_t domain_create_w(const wchar_t* name) {
  return create_domain(narrow(name));
}
void domain_destroy(nvtxDomainHandle_t) {}  // kept: late pops may still name it
void initialize(const void*) {}

// Writes the recording when the program exits.
struct Writer {
  ~Writer() {
    const char* path = std::getenv("H2D_NVTX_RECORD");
    if (path == nullptr || *path == 0) {
      std::fprintf(stderr, "nvtx_recorder: H2D_NVTX_RECORD is not set; nothing written\n");
      return;
    }
    nlohmann::json events = nlohmann::json::array();
    {
      Recording& r = recording();
      std::lock_guard<std::mutex> lock(r.mutex);
      for (const Event& e : r.events) {
        nlohmann::json item = {
            {"type", e.type}, {"domain", e.domain}, {"tid", e.tid}, {"t_ns", e.t_ns}};
        if (e.type == "push" || e.type == "mark") {
          item["message"] = e.message;
          item["category"] = e.category;
          item["color_type"] = e.color_type;
          item["color"] = e.color;
          item["payload_type"] = e.payload_type;
          item["payload"] = e.payload;
        } else if (e.type == "name_category") {
          item["category"] = e.category;
          item["name"] = e.message;
        } else if (e.type == "name_thread") {
          item["thread"] = e.thread;
          item["name"] = e.message;
        }
        events.push_back(std::move(item));
      }
    }
    std::ofstream out(path, std::ios::trunc);
    out << nlohmann::json{{"schema", 1}, {"events", std::move(events)}}.dump() << '\n';
    if (!out) {
      std::fprintf(stderr, "nvtx_recorder: could not write %s\n", path);
    }
  }
};
Writer writer;

template <typename Function>
NvtxFunctionPointer as_slot(Function function) {
  return reinterpret_cast<NvtxFunctionPointer>(function);
}

// Writes `function` into slot `id` of `module`'s table, when the program's NVTX has that slot.
bool attach(const NvtxExportTableCallbacks& callbacks, NvtxCallbackModule module,
            const std::vector<std::pair<unsigned, NvtxFunctionPointer>>& slots) {
  NvtxFunctionTable table = nullptr;
  unsigned int size = 0;
  if (callbacks.GetModuleFunctionTable(module, &table, &size) == 0 || table == nullptr) {
    return false;
  }
  for (const auto& [id, function] : slots) {
    if (id < size && table[id] != nullptr) {
      *table[id] = function;
    }
  }
  return true;
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(
    NvtxGetExportTableFunc_t get_export_table) {
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks)) {
    return 0;
  }
  const auto* version =
      static_cast<const NvtxExportTableVersionInfo*>(get_export_table(NVTX_ETID_VERSIONINFO));
  if (version != nullptr && version->struct_size >= sizeof(NvtxExportTableVersionInfo) &&
      version->SetInjectionNvtxVersion != nullptr) {
    version->SetInjectionNvtxVersion(NVTX_VERSION);
  }
  const bool core = attach(*callbacks, NVTX_CB_MODULE_CORE,
                           {
                               {NVTX_CBID_CORE_MarkEx, as_slot(&mark_ex)},
                               {NVTX_CBID_CORE_MarkA, as_slot(&mark_a)},
                               {NVTX_CBID_CORE_RangePushEx, as_slot(&range_push_ex)},
                               {NVTX_CBID_CORE_RangePushA, as_slot(&range_push_a)},
                               {NVTX_CBID_CORE_RangePushW, as_slot(&range_push_w)},
                               {NVTX_CBID_CORE_RangePop, as_slot(&range_pop)},
                               {NVTX_CBID_CORE_NameCategoryA, as_slot(&name_category_a)},
                               {NVTX_CBID_CORE_NameCategoryW, as_slot(&name_category_w)},
                               {NVTX_CBID_CORE_NameOsThreadA, as_slot(&name_os_thread_a)},
                               {NVTX_CBID_CORE_NameOsThreadW, as_slot(&name_os_thread_w)},
                           });
  const bool core2 =
      attach(*callbacks, NVTX_CB_MODULE_CORE2,
             {
                 {NVTX_CBID_CORE2_DomainMarkEx, as_slot(&domain_mark_ex)},
                 {NVTX_CBID_CORE2_DomainRangePushEx, as_slot(&domain_range_push_ex)},
                 {NVTX_CBID_CORE2_DomainRangePop, as_slot(&domain_range_pop)},
                 {NVTX_CBID_CORE2_DomainNameCategoryA, as_slot(&domain_name_category_a)},
                 {NVTX_CBID_CORE2_DomainNameCategoryW, as_slot(&domain_name_category_w)},
                 {NVTX_CBID_CORE2_DomainRegisterStringA, as_slot(&domain_register_string_a)},
                 {NVTX_CBID_CORE2_DomainRegisterStringW, as_slot(&domain_register_string_w)},
                 {NVTX_CBID_CORE2_DomainCreateA, as_slot(&domain_create_a)},
                 {NVTX_CBID_CORE2_DomainCreateW, as_slot(&domain_create_w)},
                 {NVTX_CBID_CORE2_DomainDestroy, as_slot(&domain_destroy)},
                 {NVTX_CBID_CORE2_Initialize, as_slot(&initialize)},
             });
  return core && core2 ? 1 : 0;
}
