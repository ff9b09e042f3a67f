package dev.pagantic.engine.llamacpp;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The metadata of a GGUF file (its key-value section), read in Java before native code sees the file: the model's
 * architecture ({@code general.architecture}) and chat templates ({@code tokenizer.chat_template},
 * {@code tokenizer.chat_template.tool_use}). Scalar and string values are read; arrays (the vocabulary) are skipped.
 * A header that cannot be read (truncated, lengths beyond the file) is an {@link IOException}.
 *
 * @param version     the GGUF version (2 or 3)
 * @param tensorCount the number of tensors the file declares
 * @param entries     the key-value pairs, in file order
 * @param end         the offset of the first byte after the key-value section (the tensor infos)
 */
record GgufMetadata(int version, long tensorCount, List<Entry> entries, long end) {

    /** The key of the model's architecture. */
    static final String ARCHITECTURE = "general.architecture";
    /** The key of the default chat template. */
    static final String CHAT_TEMPLATE = "tokenizer.chat_template";
    /** The key of the chat template some models (Hermes 2 Pro) carry for requests with tools. */
    static final String TOOL_USE_TEMPLATE = "tokenizer.chat_template.tool_use";

    static final int TYPE_STRING = 8;
    static final int TYPE_ARRAY = 9;

    /** Strings longer than this are skipped rather than read (no chat template comes near it). */
    private static final int MAX_STRING = 4 << 20;

    /**
     * One key-value pair.
     *
     * @param key    the key
     * @param type   the GGUF value type (8 is a string, 9 an array)
     * @param offset where the pair (its key) starts in the file
     * @param length the pair's length in bytes
     * @param value  a scalar's value (a Long, Double or Boolean), a string's text, or empty for an array or a string
     *               too long to read
     */
    record Entry(String key, int type, long offset, long length, Optional<Object> value) {
    }

    /** The text of a string value. */
    Optional<String> string(String key) {
        return entries.stream().filter(entry -> entry.key().equals(key)).findFirst()
                .flatMap(Entry::value).filter(String.class::isInstance).map(String.class::cast);
    }

    /** Reads the metadata of the file, which has been checked to start with the GGUF magic. */
    static GgufMetadata read(Path file) throws IOException {
        long size = Files.size(file);
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            Reader reader = new Reader(in, size);
            reader.skip(4); // the magic
            int version = (int) reader.uint32();
            if (version < 2) {
                throw new IOException("GGUF version " + version + " is not supported (version 2 or 3 is)");
            }
            long tensors = reader.uint64();
            long count = reader.uint64();
            List<Entry> entries = new ArrayList<>();
            for (long i = 0; i < count; i++) {
                long offset = reader.position;
                String key = reader.string(MAX_STRING).orElseThrow(() -> new IOException("a key is too long"));
                int type = (int) reader.uint32();
                Optional<Object> value = reader.value(type);
                entries.add(new Entry(key, type, offset, reader.position - offset, value));
            }
            return new GgufMetadata(version, tensors, List.copyOf(entries), reader.position);
        }
    }

    /** Little-endian reads that track the position and refuse lengths beyond the file. */
    private static final class Reader {
        private final InputStream in;
        private final long size;
        private long position;

        Reader(InputStream in, long size) {
            this.in = in;
            this.size = size;
        }

        Optional<Object> value(int type) throws IOException {
            if (type == TYPE_STRING) {
                return string(MAX_STRING).map(Object.class::cast);
            }
            if (type == TYPE_ARRAY) {
                int elementType = (int) uint32();
                long count = uint64();
                for (long i = 0; i < count; i++) {
                    if (elementType == TYPE_STRING || elementType == TYPE_ARRAY) {
                        value(elementType);
                    } else {
                        skip(scalarSize(elementType));
                    }
                }
                return Optional.empty();
            }
            int bytes = scalarSize(type);
            long raw = bytes == 1 ? read() : bytes == 2 ? read() | read() << 8 : bytes == 4 ? uint32() : uint64();
            return Optional.of(switch (type) {
                case 6 -> (double) Float.intBitsToFloat((int) raw);
                case 7 -> raw != 0;
                case 12 -> Double.longBitsToDouble(raw);
                default -> raw;
            });
        }

        /** The size of a scalar of the type: u8, i8, u16, i16, u32, i32, f32, bool, (string, array), u64, i64, f64. */
        private static int scalarSize(int type) throws IOException {
            return switch (type) {
                case 0, 1, 7 -> 1;
                case 2, 3 -> 2;
                case 4, 5, 6 -> 4;
                case 10, 11, 12 -> 8;
                default -> throw new IOException("unknown GGUF value type " + type);
            };
        }

        Optional<String> string(int maxLength) throws IOException {
            long length = uint64();
            if (length < 0 || length > size - position) {
                throw new IOException("a string of " + length + " bytes runs past the end of the file");
            }
            if (length > maxLength) {
                skip(length);
                return Optional.empty();
            }
            byte[] bytes = in.readNBytes((int) length);
            if (bytes.length < length) {
                throw new EOFException("the file ends inside a string");
            }
            position += length;
            return Optional.of(new String(bytes, StandardCharsets.UTF_8));
        }

        long uint32() throws IOException {
            return read() | read() << 8 | read() << 16 | (long) read() << 24;
        }

        long uint64() throws IOException {
            return uint32() | uint32() << 32;
        }

        private long read() throws IOException {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("the file ends inside its metadata");
            }
            position++;
            return b;
        }

        void skip(long bytes) throws IOException {
            if (bytes > size - position) {
                throw new EOFException("the file ends inside its metadata");
            }
            in.skipNBytes(bytes);
            position += bytes;
        }
    }
}
