package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The private native-library directories: those of processes that died without cleaning up are removed. */
class NativeLibraryTest {

    @TempDir
    Path temp;

    private Path leftover(String name) throws IOException {
        Path directory = Files.createDirectory(temp.resolve(name));
        Files.write(directory.resolve(NativeLibrary.libraryName()), new byte[1024]);
        return directory;
    }

    @Test
    void theDirectoryOfADeadProcessIsRemovedAndThoseOfLiveOnesAndOthersStay() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        assertThat(ended.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Path dead = leftover("pagantic-llama-" + ended.pid() + "-123");
        Path mine = leftover("pagantic-llama-" + ProcessHandle.current().pid() + "-456");
        Path olderLayout = leftover("pagantic-llama-789");
        Path unrelated = leftover("something-else-" + ended.pid() + "-1");

        assertThat(NativeLibrary.removeLeftovers(temp)).containsExactly(dead);

        assertThat(dead).doesNotExist();
        assertThat(mine).isDirectory();
        assertThat(olderLayout).isDirectory();
        assertThat(unrelated).isDirectory();
    }

    @Test
    void theRuntimesOwnDirectoryCarriesItsPid() {
        Path directory = TestModels.runtime().libraryDirectory();

        assertThat(directory.getFileName().toString())
                .startsWith("pagantic-llama-" + ProcessHandle.current().pid() + "-");
        assertThat(NativeLibrary.isBundled(directory)).isTrue();
    }
}
