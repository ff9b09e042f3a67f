package dev.pagantic.context;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.TokenCounter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Cuts a long text into chunks small enough to retrieve and to fit a prompt, breaking at paragraph or sentence
 * boundaries and repeating a little of each chunk at the start of the next (the overlap), so that a passage cut in two
 * is still found whole in one of them.
 *
 * <h2>How the text is cut</h2>
 * The text is first divided into units: its paragraphs (separated by a blank line) with {@link Boundary#PARAGRAPH}, or
 * its sentences (ending in {@code .}, {@code !} or {@code ?}, optionally followed by closing quotes or brackets, then
 * whitespace; paragraph breaks also end a sentence) with {@link Boundary#SENTENCE}. A unit larger than the maximum
 * size is divided further: a paragraph into sentences, a sentence into words, a word into pieces. Units exclude the
 * whitespace around them. Then consecutive units are packed greedily: each chunk is the longest run of units, starting
 * where the previous one's overlap starts, whose text fits the maximum size.
 *
 * <h2>What the chunks guarantee</h2>
 * <ul>
 *   <li>Each chunk's content is exactly {@code text.substring(start, end)} for the offsets in its metadata
 *       ({@value #START_OFFSET}, {@value #END_OFFSET}); it begins and ends at unit boundaries and never with
 *       whitespace.</li>
 *   <li>Chunks come in text order and together cover every character of the text except whitespace between
 *       chunks.</li>
 *   <li>Each chunk's size is at most the maximum size (the one exception: a single character that alone counts more
 *       tokens than the maximum becomes a chunk of its own).</li>
 *   <li>The overlap of two consecutive chunks ({@code text.substring(next.start, previous.end)}) is the longest run of
 *       the previous chunk's last units, other than its first, whose size is at most the configured overlap (shortened
 *       only when the next unit would otherwise not fit); every chunk adds at least one unit that the previous did
 *       not hold.</li>
 * </ul>
 * Sizes are counted in characters (Unicode code points) by default, or in tokens with
 * {@link Builder#sizeInTokens(TokenCounter)} (use the engine's counter, or {@link TokenCounter#estimate()}). A size is
 * always measured on the chunk's actual text, separators included.
 *
 * <p>Sentence detection is a simple, deterministic rule, not a language model: abbreviations such as "e.g." end a
 * sentence too. That only moves a possible cut; nothing is lost. Splitters are immutable and thread-safe.
 *
 * <pre>{@code
 * DocumentSplitter splitter = DocumentSplitter.builder()
 *         .boundary(DocumentSplitter.Boundary.SENTENCE)
 *         .sizeInTokens(engine.tokenCounter()).maxSize(256).overlap(32)
 *         .build();
 * List<Candidate> chunks = splitter.split("handbook.md", text);
 * }</pre>
 */
public final class DocumentSplitter {

    /** Metadata key of a chunk's position among the chunks of its document, from 0 (an {@code Integer}). */
    public static final String CHUNK_INDEX = "chunk_index";
    /** Metadata key of the offset ({@code String} index) where a chunk starts in its document (an {@code Integer}). */
    public static final String START_OFFSET = "start_offset";
    /** Metadata key of the offset just past a chunk's end in its document (an {@code Integer}). */
    public static final String END_OFFSET = "end_offset";

    /** Default maximum chunk size: 1,000 characters. */
    public static final int DEFAULT_MAX_SIZE = 1000;

    private static final Pattern PARAGRAPH_BREAK = Pattern.compile("\\R[\\h\\x0B\\f]*\\R\\s*");
    private static final Pattern SENTENCE_END = Pattern.compile("[.!?]+[\"'\\u201D\\u2019)\\]]*(?=\\s|$)");
    private static final Pattern WORD = Pattern.compile("\\S+");

    /** Where chunks preferably break. */
    public enum Boundary {
        /** Pack whole paragraphs; a paragraph larger than a chunk is cut at sentences. */
        PARAGRAPH,
        /** Pack whole sentences, across paragraphs. */
        SENTENCE
    }

    private final Boundary boundary;
    private final int maxSize;
    private final int overlap;
    private final @Nullable TokenCounter counter; // null: characters

    private DocumentSplitter(Builder builder) {
        this.boundary = builder.boundary;
        this.maxSize = builder.maxSize;
        this.overlap = builder.overlap;
        this.counter = builder.counter;
    }

    /** Starts building a splitter: paragraphs, 1,000 characters, no overlap. */
    public static Builder builder() {
        return new Builder();
    }

    /** Splits the text of a document with the given source into chunks (which carry that source). */
    public List<Candidate> split(String source, String text) {
        return split(Candidate.of(text, source));
    }

    /**
     * Splits a document into chunks that keep its source and metadata and add {@value #CHUNK_INDEX},
     * {@value #START_OFFSET} and {@value #END_OFFSET}. A text with nothing but whitespace gives no chunks.
     */
    public List<Candidate> split(Candidate document) {
        Objects.requireNonNull(document, "document");
        String text = document.content();
        List<int[]> units = units(text);
        List<Candidate> chunks = new ArrayList<>();
        int i = 0;
        while (i < units.size()) {
            int j = i;
            while (j + 1 < units.size() && size(text, units, i, j + 1) <= maxSize) {
                j++;
            }
            chunks.add(chunk(document, chunks.size(), units.get(i)[0], units.get(j)[1]));
            if (j == units.size() - 1) {
                break;
            }
            int next = j + 1;
            while (next - 1 > i && size(text, units, next - 1, j) <= overlap) {
                next--;
            }
            while (next <= j && size(text, units, next, j + 1) > maxSize) {
                next++;
            }
            i = next;
        }
        return List.copyOf(chunks);
    }

    /** The configured boundary. */
    public Boundary boundary() {
        return boundary;
    }

    /** The largest chunk size, in characters or tokens. */
    public int maxSize() {
        return maxSize;
    }

    /** The largest overlap between consecutive chunks, in characters or tokens. */
    public int overlap() {
        return overlap;
    }

    private static Candidate chunk(Candidate document, int index, int start, int end) {
        Map<String, Object> metadata = new LinkedHashMap<>(document.metadata());
        metadata.put(CHUNK_INDEX, index);
        metadata.put(START_OFFSET, start);
        metadata.put(END_OFFSET, end);
        return new Candidate(document.content().substring(start, end), document.source(), 0.0, metadata);
    }

    private int size(String text, List<int[]> units, int first, int last) {
        return size(text, units.get(first)[0], units.get(last)[1]);
    }

    private int size(String text, int start, int end) {
        return counter == null ? text.codePointCount(start, end) : counter.count(text.substring(start, end));
    }

    // ---------------------------------------------------------------------------------------------- units

    private static final int PARAGRAPHS = 0;
    private static final int SENTENCES = 1;
    private static final int WORDS = 2;
    private static final int PIECES = 3;

    /** The text's units as [start, end) offsets, in order, each no larger than the maximum size. */
    private List<int[]> units(String text) {
        List<int[]> units = new ArrayList<>();
        for (int[] paragraph : paragraphs(text)) {
            if (boundary == Boundary.PARAGRAPH) {
                refine(text, paragraph, PARAGRAPHS, units);
            } else {
                for (int[] sentence : divide(text, paragraph, SENTENCES)) {
                    refine(text, sentence, SENTENCES, units);
                }
            }
        }
        return units;
    }

    /** Adds the span as one unit if it fits, else its parts at the next finer level, recursively. */
    private void refine(String text, int[] span, int level, List<int[]> out) {
        if (level == PIECES || size(text, span[0], span[1]) <= maxSize) {
            out.add(span);
            return;
        }
        for (int[] part : divide(text, span, level + 1)) {
            refine(text, part, level + 1, out);
        }
    }

    private List<int[]> divide(String text, int[] span, int level) {
        switch (level) {
            case SENTENCES:
                return sentences(text, span);
            case WORDS:
                return matches(WORD, text, span);
            default:
                return pieces(text, span);
        }
    }

    private static List<int[]> paragraphs(String text) {
        List<int[]> result = new ArrayList<>();
        Matcher breaks = PARAGRAPH_BREAK.matcher(text);
        int start = 0;
        while (breaks.find()) {
            addTrimmed(text, start, breaks.start(), result);
            start = breaks.end();
        }
        addTrimmed(text, start, text.length(), result);
        return result;
    }

    private static List<int[]> sentences(String text, int[] span) {
        List<int[]> result = new ArrayList<>();
        Matcher ends = SENTENCE_END.matcher(text).region(span[0], span[1]);
        ends.useTransparentBounds(true);
        int start = span[0];
        while (ends.find()) {
            addTrimmed(text, start, ends.end(), result);
            start = ends.end();
        }
        addTrimmed(text, start, span[1], result);
        return result;
    }

    private static List<int[]> matches(Pattern pattern, String text, int[] span) {
        List<int[]> result = new ArrayList<>();
        Matcher matcher = pattern.matcher(text).region(span[0], span[1]);
        while (matcher.find()) {
            result.add(new int[] {matcher.start(), matcher.end()});
        }
        return result;
    }

    /**
     * Cuts a span (a word too large for a chunk) into the longest prefixes that fit, at code-point boundaries. In
     * characters the cut is computed; in tokens it is found by binary search over the prefix length (token counts
     * grow with the prefix), so a long blob costs a logarithmic number of counts per piece.
     */
    private List<int[]> pieces(String text, int[] span) {
        List<int[]> result = new ArrayList<>();
        int start = span[0];
        while (start < span[1]) {
            int available = text.codePointCount(start, span[1]);
            int fitting;
            if (counter == null) {
                fitting = Math.min(available, maxSize);
            } else {
                int low = 1; // at least one code point, even if it alone is too large
                int high = available;
                while (low < high) {
                    int mid = low + (high - low + 1) / 2;
                    if (size(text, start, text.offsetByCodePoints(start, mid)) <= maxSize) {
                        low = mid;
                    } else {
                        high = mid - 1;
                    }
                }
                fitting = low;
            }
            int end = text.offsetByCodePoints(start, fitting);
            result.add(new int[] {start, end});
            start = end;
        }
        return result;
    }

    private static void addTrimmed(String text, int start, int end, List<int[]> out) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (start < end) {
            out.add(new int[] {start, end});
        }
    }

    /** Builds a {@link DocumentSplitter}; {@link #build()} checks the sizes ({@code CONFIG_INVALID}). */
    public static final class Builder {
        private Boundary boundary = Boundary.PARAGRAPH;
        private int maxSize = DEFAULT_MAX_SIZE;
        private int overlap;
        private @Nullable TokenCounter counter;

        private Builder() {
        }

        /** Where chunks preferably break; {@link Boundary#PARAGRAPH} by default. */
        public Builder boundary(Boundary value) {
            this.boundary = Objects.requireNonNull(value, "boundary");
            return this;
        }

        /** The largest chunk size, at least 1; {@value DocumentSplitter#DEFAULT_MAX_SIZE} by default. */
        public Builder maxSize(int value) {
            this.maxSize = value;
            return this;
        }

        /** The largest overlap between consecutive chunks, from 0 (the default) to less than the maximum size. */
        public Builder overlap(int value) {
            this.overlap = value;
            return this;
        }

        /** Counts sizes in characters (Unicode code points); the default. */
        public Builder sizeInCharacters() {
            this.counter = null;
            return this;
        }

        /** Counts sizes in tokens with the given counter. */
        public Builder sizeInTokens(TokenCounter tokenCounter) {
            this.counter = Objects.requireNonNull(tokenCounter, "tokenCounter");
            return this;
        }

        /** The splitter; {@code CONFIG_INVALID} unless {@code maxSize >= 1} and {@code 0 <= overlap < maxSize}. */
        public DocumentSplitter build() {
            if (maxSize < 1) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "maxSize must be at least 1: " + maxSize)
                        .detail("maxSize", maxSize).build();
            }
            if (overlap < 0 || overlap >= maxSize) {
                throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                                "overlap must be at least 0 and less than maxSize (" + maxSize + "): " + overlap)
                        .detail("overlap", overlap).detail("maxSize", maxSize).build();
            }
            return new DocumentSplitter(this);
        }
    }
}
