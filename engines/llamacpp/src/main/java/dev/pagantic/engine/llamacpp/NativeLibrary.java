package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Optional;

/**
 * Makes java-llama.cpp load its native library from a directory of pagantic's choosing, before the binding's own
 * loader runs. Left to itself the binding deletes every file starting with {@code llama} or {@code jllama} in
 * {@code java.io.tmpdir}, extracts to a fixed file name (so parallel JVMs collide) and prints to standard output; with
 * {@value #LIBRARY_PATH_PROPERTY} set it loads the library from there and does none of that.
 *
 * <p>The library is process-wide (a JVM loads a native library once), so this is the one place that touches global
 * state, and only the system property the binding reads: a path the user set wins, then the runtime's configured
 * directory, then a private directory this class extracts the bundled library into.
 */
final class NativeLibrary {

    /** The system property java-llama.cpp reads the library directory from. */
    static final String LIBRARY_PATH_PROPERTY = "de.kherud.llama.lib.path";

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
            Path directory = Files.createTempDirectory("pagantic-llama-");
            Path library = directory.resolve(libraryName());
            Files.copy(in, library, StandardCopyOption.REPLACE_EXISTING);
            directory.toFile().deleteOnExit();
            library.toFile().deleteOnExit();
            return directory;
        } catch (IOException e) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "cannot extract the native library: " + e, e);
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
