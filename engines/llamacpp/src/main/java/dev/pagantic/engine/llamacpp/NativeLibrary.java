package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes java-llama.cpp load its native library from a directory of pagantic's choosing, before the binding's own
 * loader runs. Left to itself the binding deletes every file starting with {@code llama} or {@code jllama} in
 * {@code java.io.tmpdir}, extracts to a fixed file name (so parallel JVMs collide) and prints to standard output; with
 * {@value #LIBRARY_PATH_PROPERTY} set it loads the library from there and does none of that.
 *
 * <p>The library is process-wide (a JVM loads a native library once), so this is the one place that touches global
 * state, and only the system property the binding reads: a path the user set wins, then the runtime's configured
 * directory, then a private directory this class extracts the bundled library into.
 *
 * <p>The private directory is {@code java.io.tmpdir/pagantic-llama-<pid>-<n>}, deleted when the JVM exits normally.
 * A JVM killed with {@code kill -9} cannot delete it (5.4 MB a time on Linux), so each extraction first removes the
 * directories of processes that are no longer alive (the pid is in the name; a live process that started after the
 * directory was written is not its owner either).
 */
final class NativeLibrary {

    /** The system property java-llama.cpp reads the library directory from. */
    static final String LIBRARY_PATH_PROPERTY = "de.kherud.llama.lib.path";
    /** The llama.cpp build of the bundled library: java-llama.cpp 4.2.0 builds b4916 (its CMakeLists.txt). */
    static final String BUNDLED_BUILD = "b4916";
    /** The java-llama.cpp version that bundles it. */
    static final String BINDING_VERSION = "4.2.0";

    private static final String DIRECTORY_PREFIX = "pagantic-llama-";
    private static final Logger LOG = LoggerFactory.getLogger(NativeLibrary.class);

    private NativeLibrary() {
    }

    /**
     * Points the binding at a library directory unless one is set already.
     *
     * @param configured a directory holding the platform's library (a CUDA build, for GPU offload); empty to use the
     *                   library bundled in the binding's jar
     * @return the directory the binding will load from
     * @throws PaganticException {@code CONFIG_INVALID} when the configured directory lacks the library, or no library
     *                           is bundled for this platform
     */
    static Path prepare(Optional<Path> configured) {
        synchronized (NativeLibrary.class) {
            String current = System.getProperty(LIBRARY_PATH_PROPERTY);
            if (current != null && !current.isBlank()) {
                return Path.of(current);
            }
            Path directory = configured.map(NativeLibrary::requireLibraryIn).orElseGet(NativeLibrary::extract);
            System.setProperty(LIBRARY_PATH_PROPERTY, directory.toString());
            return directory;
        }
    }

    private static Path requireLibraryIn(Path directory) {
        if (!Files.isRegularFile(directory.resolve(libraryName()))) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "the native library directory " + directory
                    + " does not contain " + libraryName()).detail("path", directory.toString()).build();
        }
        return directory;
    }

    private static Path extract() {
        String resource = "de/kherud/llama/" + osFolder() + "/" + archFolder() + "/" + libraryName();
        try (InputStream in = NativeLibrary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "java-llama.cpp bundles no native library "
                                + "for this platform (" + resource + "); build one and set nativeLibraryPath")
                        .detail("resource", resource).build();
            }
            Path temp = Path.of(System.getProperty("java.io.tmpdir"));
            removeLeftovers(temp);
            Path directory = Files.createTempDirectory(temp, DIRECTORY_PREFIX + ProcessHandle.current().pid() + "-");
            Path library = directory.resolve(libraryName());
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            directory.toFile().deleteOnExit();
            library.toFile().deleteOnExit();
            return directory;
        } catch (IOException e) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "cannot extract the native library: " + e, e);
        }
    }

    /** Whether the directory is one this class extracted the bundled library into. */
    static boolean isBundled(Path directory) {
        return directory.getFileName() != null && directory.getFileName().toString().startsWith(DIRECTORY_PREFIX);
    }

    /**
     * Deletes the extraction directories in {@code temp} whose process is no longer alive; a directory that cannot
     * be deleted (another user's) is left alone.
     *
     * @return the directories removed
     */
    static List<Path> removeLeftovers(Path temp) {
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> candidates = Files.newDirectoryStream(temp, DIRECTORY_PREFIX + "*")) {
            for (Path candidate : candidates) {
                if (Files.isDirectory(candidate, LinkOption.NOFOLLOW_LINKS) && ownerIsGone(candidate)
                        && deleteQuietly(candidate)) {
                    removed.add(candidate);
                }
            }
        } catch (IOException | DirectoryIteratorException unreadable) {
            LOG.debug("cannot look for leftover native library directories in {}: {}", temp, unreadable.toString());
        }
        if (!removed.isEmpty()) {
            LOG.info("removed {} native library directories of processes that ended without cleaning up",
                    removed.size());
        }
        return removed;
    }

    /** Whether the pid in the directory's name belongs to no live process that could have written it. */
    private static boolean ownerIsGone(Path directory) {
        String rest = directory.getFileName().toString().substring(DIRECTORY_PREFIX.length());
        int dash = rest.indexOf('-');
        if (dash <= 0) {
            return false; // an older layout without a pid: its owner cannot be told
        }
        long pid;
        try {
            pid = Long.parseLong(rest.substring(0, dash));
        } catch (NumberFormatException notAPid) {
            return false;
        }
        Optional<ProcessHandle> owner = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (owner.isEmpty()) {
            return true;
        }
        try {
            Instant written = Files.getLastModifiedTime(directory).toInstant();
            return owner.get().info().startInstant().map(started -> started.isAfter(written)).orElse(false);
        } catch (IOException unreadable) {
            return false;
        }
    }

    private static boolean deleteQuietly(Path directory) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
            Files.deleteIfExists(directory);
            return true;
        } catch (IOException | DirectoryIteratorException notOurs) {
            return false;
        }
    }

    static String libraryName() {
        String os = osFolder();
        return os.equals("Windows") ? "jllama.dll" : os.equals("Mac") ? "libjllama.dylib" : "libjllama.so";
    }

    private static String osFolder() {
        String name = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (name.contains("win")) {
            return "Windows";
        }
        return name.contains("mac") || name.contains("darwin") ? "Mac" : "Linux";
    }

    private static String archFolder() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            return "x86_64";
        }
        if (arch.equals("aarch64") || arch.equals("arm64")) {
            return "aarch64";
        }
        return arch.equals("x86") || arch.equals("i386") ? "x86" : arch;
    }
}
