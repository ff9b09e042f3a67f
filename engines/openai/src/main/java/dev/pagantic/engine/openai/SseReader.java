package dev.pagantic.engine.openai;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads server-sent events from a byte stream and returns the {@code data} of each event. Lines end with LF or CRLF;
 * comment lines ({@code :} heartbeats) and the {@code event}, {@code id} and {@code retry} fields are skipped. Lines
 * are split on bytes and decoded whole, so a multi-byte character split across network packets arrives intact.
 *
 * <p>It reads through its own small buffer rather than a {@code BufferedReader}, whose lock would block another
 * thread that closes the stream to cancel the call: cancellation closes the underlying stream, and the blocked read
 * here then fails with an {@link IOException}.
 */
final class SseReader {

    /** No line of a chat completions stream comes near this; a longer one is a broken or hostile server. */
    static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

    private final InputStream in;
    private final byte[] buffer = new byte[8192];
    private int position;
    private int limit;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

    SseReader(InputStream in) {
        this.in = in;
    }

    /**
     * One event's data lines.
     *
     * @param lines    the {@code data} lines of the event, in order
     * @param complete whether the event was ended by a blank line, rather than cut by the end of the stream
     */
    record Event(List<String> lines, boolean complete) {

        /** The data, lines joined by LF as the SSE specification says. */
        String data() {
            return String.join("\n", lines);
        }
    }

    /** The next event with data, or null at the end of the stream. */
    Event next() throws IOException {
        List<String> data = new ArrayList<>();
        while (true) {
            String text = readLine();
            if (text == null) {
                return data.isEmpty() ? null : new Event(data, false);
            }
            if (text.isEmpty()) {
                if (!data.isEmpty()) {
                    return new Event(data, true);
                }
                continue;
            }
            if (text.startsWith(":")) {
                continue;
            }
            int colon = text.indexOf(':');
            String field = colon < 0 ? text : text.substring(0, colon);
            if (field.equals("data")) {
                String value = colon < 0 ? "" : text.substring(colon + 1);
                data.add(value.startsWith(" ") ? value.substring(1) : value);
            }
        }
    }

    /** The next line without its terminator, or null at the end of the stream (a last unterminated line counts). */
    private String readLine() throws IOException {
        line.reset();
        while (true) {
            if (position == limit) {
                limit = in.read(buffer, 0, buffer.length);
                position = 0;
                if (limit < 0) {
                    limit = 0;
                    return line.size() == 0 ? null : decode();
                }
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            line.write(buffer, start, position - start);
            if (line.size() > MAX_LINE_BYTES) {
                throw new OversizedLine();
            }
            if (position < limit) {
                position++; // the LF
                return decode();
            }
        }
    }

    /** A line beyond {@link #MAX_LINE_BYTES}: the answer is malformed, not the connection broken. */
    static final class OversizedLine extends IOException {
        private static final long serialVersionUID = 1L;

        OversizedLine() {
            super("an event stream line is longer than " + MAX_LINE_BYTES + " bytes");
        }
    }

    private String decode() {
        String text = line.toString(StandardCharsets.UTF_8);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }
}
