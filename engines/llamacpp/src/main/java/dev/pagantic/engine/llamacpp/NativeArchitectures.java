package dev.pagantic.engine.llamacpp;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which model architectures the loaded native library can know, read from the library itself rather than from a
 * list typed by hand: llama.cpp keeps every architecture it supports as a NUL-terminated name
 * ({@code LLM_ARCH_NAMES}: {@code "llama"}, {@code "qwen2"}, ...), and its loader looks {@code general.architecture}
 * up among them. So a name that the library does not hold as a NUL-terminated string anywhere is certainly unknown to
 * it (b4916 has no {@code qwen3}, {@code llama4} or {@code gemma3n}). The converse is not certain (the linker may store
 * {@code "qwen2"} as the tail of {@code "rwkv6qwen2"}, so the search matches the name at the end of any string, and a
 * name can occur for another reason, as {@code glm4} does in the chat template name {@code chatglm4}): such a name is
 * left to the native loader to accept or refuse.
 */
final class NativeArchitectures {

    private final Path library;
    private final Map<String, Boolean> known = new ConcurrentHashMap<>();

    NativeArchitectures(Path library) {
        this.library = library;
    }

    /**
     * Whether the library may support the architecture: false only when it certainly does not; true also when the
     * library cannot be read (the native loader then decides).
     */
    boolean mayKnow(String architecture) {
        if (architecture.isEmpty() || !Files.isRegularFile(library)) {
            return true;
        }
        return known.computeIfAbsent(architecture, this::holdsName);
    }

    private boolean holdsName(String architecture) {
        byte[] name = (architecture + "\0").getBytes(StandardCharsets.UTF_8);
        byte[] buffer = new byte[1 << 20];
        int kept = 0; // bytes carried over from the previous read, so that a name across two reads is found
        try (InputStream in = Files.newInputStream(library)) {
            int read;
            while ((read = in.read(buffer, kept, buffer.length - kept)) > 0) {
                int filled = kept + read;
                if (indexOf(buffer, filled, name) >= 0) {
                    return true;
                }
                kept = Math.min(name.length - 1, filled);
                System.arraycopy(buffer, filled - kept, buffer, 0, kept);
            }
            return false;
        } catch (IOException unreadable) {
            return true;
        }
    }

    private static int indexOf(byte[] data, int length, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
