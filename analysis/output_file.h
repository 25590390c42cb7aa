#pragma once
// OutputFile: an output stream to a file whose every write is checked. The first failure (a full disk, a file
// size limit) is kept with the system's reason, and close() throws OutputDirError naming the file (as
// shown()) with it: a result is never left short while the command succeeds.

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

namespace rsoc::analysis {

class OutputFile : public std::ostream {
 public:
  // Creates or truncates `path`. Messages name `named` when given (a temporary file by the file it becomes),
  // else `path`. Throws OutputDirError.
  explicit OutputFile(const std::filesystem::path& path, const std::filesystem::path& named = {});
  ~OutputFile() override;  // closes without checking: only on paths that already fail
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Writes what is buffered and closes the file. Throws OutputDirError when any write failed.
  void close();
  const std::filesystem::path& path() const { return path_; }

 private:
  class Buffer;
  std::filesystem::path path_, named_;
  std::unique_ptr<Buffer> buffer_;
};

// Writes `text` to `path` (created or truncated). Throws OutputDirError.
void write_text_file(const std::filesystem::path& path, const std::string& text);

}  // namespace rsoc::analysis
