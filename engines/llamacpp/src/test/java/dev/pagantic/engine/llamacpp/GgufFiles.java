package dev.pagantic.engine.llamacpp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes tiny GGUF models for tests: stories260K's tensors and vocabulary under another chat template, as
 * {@code gguf} writers do. The key-value pairs are copied byte for byte but the template; the tensor infos and data
 * are copied unchanged (their offsets are relative to the aligned data section, which is realigned).
 */
public final class GgufFiles {

    private static final int DEFAULT_ALIGNMENT = 32;

    private GgufFiles() {
    }

    /** A copy of {@code source} whose default chat template is {@code template}. */
    public static Path withTemplate(Path source, Path target, String template) throws IOException {
        byte[] file = Files.readAllBytes(source);
        GgufMetadata metadata = GgufMetadata.read(source);
        List<byte[]> entries = new ArrayList<>();
        long alignment = DEFAULT_ALIGNMENT;
        for (GgufMetadata.Entry entry : metadata.entries()) {
            if (entry.key().equals("general.alignment")) {
                alignment = (Long) entry.value().orElseThrow();
            }
            if (!entry.key().equals(GgufMetadata.CHAT_TEMPLATE)) {
                entries.add(slice(file, entry.offset(), entry.length()));
            }
        }
        entries.add(stringEntry(GgufMetadata.CHAT_TEMPLATE, template));
        int infosEnd = tensorInfosEnd(file, (int) metadata.end(), metadata.tensorCount());
        int dataStart = (int) align(infosEnd, alignment);

        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 64 * 1024);
        out.write(slice(file, 0, 8)); // magic and version
        out.write(little(8).putLong(metadata.tensorCount()).array());
        out.write(little(8).putLong(entries.size()).array());
        for (byte[] entry : entries) {
            out.write(entry);
        }
        out.write(slice(file, metadata.end(), infosEnd - metadata.end()));
        out.write(new byte[(int) (align(out.size(), alignment) - out.size())]);
        out.write(slice(file, dataStart, file.length - dataStart));
        return Files.write(target, out.toByteArray());
    }

    /** The end of the tensor infos: per tensor a name, a dimension count, the dimensions, a type and an offset. */
    private static int tensorInfosEnd(byte[] file, int start, long tensors) {
        ByteBuffer buffer = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).position(start);
        for (long i = 0; i < tensors; i++) {
            int name = (int) buffer.getLong();
            buffer.position(buffer.position() + name);
            int dimensions = buffer.getInt();
            buffer.position(buffer.position() + 8 * dimensions + 4 + 8); // dimensions, type, offset
        }
        return buffer.position();
    }

    private static byte[] stringEntry(String key, String value) {
        return concat(string(key), little(4).putInt(GgufMetadata.TYPE_STRING).array(), string(value));
    }

    private static byte[] string(String text) {
        byte[] bytes = utf8(text);
        return concat(little(8).putLong(bytes.length).array(), bytes);
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static ByteBuffer little(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static long align(long offset, long alignment) {
        return (offset + alignment - 1) / alignment * alignment;
    }

    private static byte[] slice(byte[] bytes, long from, long length) {
        byte[] part = new byte[(int) length];
        System.arraycopy(bytes, (int) from, part, 0, (int) length);
        return part;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
