#include "analysis/output_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <streambuf>
#include <vector>

#include "analysis/output_dir.h"

namespace rsoc::analysis {

// A buffer written with write(2), which says why it failed; the first failure is kept and every later write
// is dropped.
class OutputFile::Buffer : public std::streambuf {
 public:
  explicit Buffer(int fd) : fd_(fd), data_(1 << 16) { setp(data_.data(), data_.data() + data_.size()); }

  // The errno of the first failed write or close; 0 when none failed.
  int error() const { return error_; }

  void close() {
    drain();
    if (fd_ >= 0 && ::close(fd_) != 0 && error_ == 0) error_ = errno;
    fd_ = -1;
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > epptr() - pptr()) {  // larger than the room left: straight through
      if (!drain() || !write_all(s, static_cast<std::size_t>(n))) return 0;
      return n;
    }
    std::memcpy(pptr(), s, static_cast<std::size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }

  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const bool ok = write_all(pbase(), static_cast<std::size_t>(pptr() - pbase()));
    setp(data_.data(), data_.data() + data_.size());
    return ok;
  }

  bool write_all(const char* p, std::size_t left) {
    while (left > 0 && error_ == 0) {
      const ssize_t n = ::write(fd_, p, left);
      if (n < 0) {
        if (errno != EINTR) error_ = errno;
        continue;
      }
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    return error_ == 0;
  }

  int fd_;
  std::vector<char> data_;
  int error_ = 0;
};

OutputFile::OutputFile(const std::filesystem::path& path, const std::filesystem::path& named)
    : std::ostream(nullptr), path_(path), named_(named.empty() ? path : named) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw write_error(named_, std::strerror(errno));
  buffer_ = std::make_unique<Buffer>(fd);
  rdbuf(buffer_.get());
}

OutputFile::~OutputFile() {
  if (buffer_) buffer_->close();
}

void OutputFile::close() {
  buffer_->close();
  if (buffer_->error() != 0) {
    setstate(std::ios::badbit);
    throw write_error(named_, std::strerror(buffer_->error()));
  }
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  OutputFile out(path);
  out << text;
  out.close();
}

}  // namespace rsoc::analysis
