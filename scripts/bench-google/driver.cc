// driver.cc: the bare parse of Google's robots.txt parser (robots.cc), for
// scripts/bench-google.sh. It reads an uncompressed tar stream on stdin
// (the egonkm corpus: zcat robots.tar.gz), keeps every regular file's body
// cut at 500 KiB (512,000 bytes, where Google stops reading), and feeds each
// body to googlebot::ParseRobotsTxt with a handler that does nothing.
//
// It times the first pass over all bodies (a new process: "fresh") and then
// PASSES more (default 5, "warm"), and prints one line:
//
//   bodies=N raw=R bytes=B fresh-MB/s=F warm-MB/s=W
//
// where R is the bytes of the bodies as stored, B those parsed (cut), and MB
// is 10^6 bytes, as Go's benchmarks count them. Usage:
//
//   zcat robots.tar.gz | driver [PASSES]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "robots.h"

namespace {

constexpr size_t kMaxBytes = 512000;  // Google reads the first 500 KiB

// NullHandler is a parse handler that ignores everything it is told.
class NullHandler : public googlebot::RobotsParseHandler {
 public:
  void HandleRobotsStart() override {}
  void HandleRobotsEnd() override {}
  void HandleUserAgent(int, absl::string_view) override {}
  void HandleAllow(int, absl::string_view) override {}
  void HandleDisallow(int, absl::string_view) override {}
  void HandleSitemap(int, absl::string_view) override {}
  void HandleUnknownAction(int, absl::string_view, absl::string_view) override {}
};

// octal reads a tar header's octal number field.
size_t octal(const char* p, size_t n) {
  size_t v = 0;
  for (size_t i = 0; i < n && p[i] >= '0' && p[i] <= '7'; i++) v = v * 8 + (p[i] - '0');
  return v;
}

// readBodies splits a tar archive into the bodies of its regular files.
// raw counts the bytes of the bodies before the cut.
std::vector<std::string> readBodies(const std::string& tar, double* raw) {
  std::vector<std::string> bodies;
  size_t off = 0;
  while (off + 512 <= tar.size()) {
    const char* h = tar.data() + off;
    if (h[0] == 0) break;  // the zero blocks that end the archive
    size_t size = octal(h + 124, 12);
    char type = h[156];
    off += 512;
    if (off + size > tar.size()) {
      std::fprintf(stderr, "driver: the tar stream ends inside an entry\n");
      std::exit(1);
    }
    if (type == '0' || type == 0) {
      *raw += size;
      bodies.emplace_back(tar.data() + off, size < kMaxBytes ? size : kMaxBytes);
    }
    off += (size + 511) / 512 * 512;
  }
  return bodies;
}

// pass parses every body once and returns the seconds it took.
double pass(const std::vector<std::string>& bodies) {
  NullHandler handler;
  auto start = std::chrono::steady_clock::now();
  for (const auto& b : bodies) googlebot::ParseRobotsTxt(b, &handler);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  int passes = argc > 1 ? std::atoi(argv[1]) : 5;
  std::string tar((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  double raw = 0;
  std::vector<std::string> bodies = readBodies(tar, &raw);
  tar.clear();
  tar.shrink_to_fit();
  double bytes = 0;
  for (const auto& b : bodies) bytes += b.size();
  if (bodies.empty() || passes < 1) {
    std::fprintf(stderr, "driver: no bodies on stdin, or PASSES < 1\n");
    return 1;
  }
  double fresh = pass(bodies);
  double warm = 0;
  for (int i = 0; i < passes; i++) warm += pass(bodies);
  std::printf("bodies=%zu raw=%.0f bytes=%.0f fresh-MB/s=%.1f warm-MB/s=%.1f\n", bodies.size(), raw, bytes,
              bytes / 1e6 / fresh, bytes * passes / 1e6 / warm);
  return 0;
}
