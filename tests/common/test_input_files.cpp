// Input files are checked before they are opened: no path can make a read
// block (a FIFO), grow without bound (/dev/zero), or fail as an internal
// error (a directory, a symlink loop, an empty path).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "common/file_text.hpp"
#include "common/spec_node.hpp"
#include "support/run_binary.hpp"
#include "support/spec_error_matchers.hpp"

namespace trainloop {
namespace {

namespace fs = std::filesystem;
using testing::contains;
using testing::expect_spec_error;
using testing::temp_path;

TEST(InputFiles, EveryPathThatIsNotARegularFileIsALocatedError) {
    const std::string dir = temp_path("dir");
    fs::create_directories(dir);
    const std::string fifo = temp_path("fifo.yaml");
    fs::remove(fifo);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const std::string loop = temp_path("loop.yaml");
    fs::remove(loop);
    fs::create_symlink(loop, loop);
    const std::string dangling = temp_path("dangling.yaml");
    fs::remove(dangling);
    fs::create_symlink(temp_path("gone.yaml"), dangling);
    struct Case {
        std::string path;
        std::string says;
    };
    for (const Case& c :
         {Case{"", "path is empty"}, Case{dir, "a directory"}, Case{fifo, "FIFO"},
          Case{"/dev/zero", "character device"}, Case{loop, "symbolic link loop"},
          Case{dangling, "missing file"}, Case{temp_path("absent.yaml"), "no such file"}}) {
        // A FIFO would block the read forever, /dev/zero grow it without bound.
        const SpecError e = expect_spec_error([&] { read_file_text(c.path); });
        EXPECT_EQ(e.where().file, c.path);
        EXPECT_TRUE(contains(e.message(), "cannot open file"));
        EXPECT_TRUE(contains(e.message(), c.says));
    }
}

TEST(InputFiles, AFileLargerThanTheLimitIsRefusedBeforeItIsRead) {
    const std::string path = temp_path("big.yaml");
    std::ofstream(path) << std::string(4096, 'x');
    const SpecError e = expect_spec_error([&] { read_input_file(path, 1024, "a small file"); });
    EXPECT_TRUE(contains(e.message(), "more than the 1024 bytes"));
    EXPECT_EQ(read_input_file(path, 8192, "a small file").size(), 4096U);
}

}  // namespace
}  // namespace trainloop
