package dev.pagantic.context;

import static dev.pagantic.context.Bm25RetrieverTest.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.context.DocumentSplitter.Boundary;
import dev.pagantic.core.Candidate;
import dev.pagantic.inference.TokenCounter;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DocumentSplitterTest {

    /** Four sentences of 10 characters each, one space apart. */
    private static final String FOUR_SENTENCES = "Aaaa aaaa. Bbbb bbbb. Cccc cccc. Dddd dddd.";

    /** Counts whitespace-separated words: one token per word. */
    private static final TokenCounter WORDS = text -> text.isBlank() ? 0 : text.strip().split("\\s+").length;

    private static List<String> contents(List<Candidate> chunks) {
        return chunks.stream().map(Candidate::content).toList();
    }

    @Test
    void sentenceChunksRepeatTheConfiguredOverlap() {
        DocumentSplitter splitter = DocumentSplitter.builder().boundary(Boundary.SENTENCE)
                .maxSize(21).overlap(10).build();

        assertThat(contents(splitter.split("doc", FOUR_SENTENCES))).containsExactly(
                "Aaaa aaaa. Bbbb bbbb.",
                "Bbbb bbbb. Cccc cccc.",
                "Cccc cccc. Dddd dddd.");
    }

    @Test
    void withoutOverlapChunksFollowEachOther() {
        DocumentSplitter splitter = DocumentSplitter.builder().boundary(Boundary.SENTENCE).maxSize(21).build();

        assertThat(contents(splitter.split("doc", FOUR_SENTENCES)))
                .containsExactly("Aaaa aaaa. Bbbb bbbb.", "Cccc cccc. Dddd dddd.");
    }

    @Test
    void anOverlapSmallerThanASentenceRepeatsNothing() {
        DocumentSplitter splitter = DocumentSplitter.builder().boundary(Boundary.SENTENCE)
                .maxSize(21).overlap(9).build();

        assertThat(contents(splitter.split("doc", FOUR_SENTENCES)))
                .containsExactly("Aaaa aaaa. Bbbb bbbb.", "Cccc cccc. Dddd dddd.");
    }

    @Test
    void paragraphsStayWholeWhenTheyFitAndOverlapByWholeParagraphs() {
        String text = "First para one.\n\nSecond para two.\n  \nThird para three.";
        DocumentSplitter noOverlap = DocumentSplitter.builder().maxSize(40).build();
        DocumentSplitter overlap = DocumentSplitter.builder().maxSize(40).overlap(16).build();

        assertThat(contents(noOverlap.split("doc", text)))
                .containsExactly("First para one.\n\nSecond para two.", "Third para three.");
        assertThat(contents(overlap.split("doc", text)))
                .containsExactly("First para one.\n\nSecond para two.", "Second para two.\n  \nThird para three.");
    }

    @Test
    void aParagraphTooLargeForAChunkIsCutAtSentences() {
        DocumentSplitter splitter = DocumentSplitter.builder().maxSize(21).overlap(10).build();

        assertThat(contents(splitter.split("doc", FOUR_SENTENCES))).containsExactly(
                "Aaaa aaaa. Bbbb bbbb.", "Bbbb bbbb. Cccc cccc.", "Cccc cccc. Dddd dddd.");
    }

    @Test
    void aWordTooLargeForAChunkIsCutIntoPieces() {
        DocumentSplitter splitter = DocumentSplitter.builder().maxSize(4).build();

        assertThat(contents(splitter.split("doc", "abcdefghij"))).containsExactly("abcd", "efgh", "ij");
    }

    @Test
    void aWordTooLargeForAChunkInTokensIsCutIntoTheLongestPiecesThatFit() {
        // estimate: one token per four characters, rounded up; 2 tokens hold 8 characters
        DocumentSplitter splitter = DocumentSplitter.builder().sizeInTokens(TokenCounter.estimate()).maxSize(2).build();

        assertThat(contents(splitter.split("doc", "abcdefghijklmnopqr")))
                .containsExactly("abcdefgh", "ijklmnop", "qr");
    }

    @Test
    void sizesCanBeCountedInTokens() {
        DocumentSplitter splitter = DocumentSplitter.builder().boundary(Boundary.SENTENCE)
                .sizeInTokens(WORDS).maxSize(4).overlap(1).build();

        assertThat(contents(splitter.split("doc", "one two three four five six seven eight nine ten.")))
                .containsExactly("one two three four", "four five six seven", "seven eight nine ten.");
    }

    @Test
    void chunksCarryTheDocumentsSourceMetadataAndOffsets() {
        DocumentSplitter splitter = DocumentSplitter.builder().boundary(Boundary.SENTENCE).maxSize(21).build();

        List<Candidate> chunks = splitter.split(Candidate.of(FOUR_SENTENCES, "manual.md", Map.of("lang", "en")));

        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk.source()).isEqualTo("manual.md");
            assertThat(chunk.metadata()).containsEntry("lang", "en");
        });
        assertThat(chunks.get(1).metadata()).containsEntry(DocumentSplitter.CHUNK_INDEX, 1)
                .containsEntry(DocumentSplitter.START_OFFSET, 22).containsEntry(DocumentSplitter.END_OFFSET, 43);
    }

    @Test
    void blankTextGivesNoChunks() {
        assertThat(DocumentSplitter.builder().build().split("doc", " \n\n \t")).isEmpty();
        assertThat(DocumentSplitter.builder().build().split("doc", "")).isEmpty();
    }

    @Test
    void chunksCoverTheTextWithinTheConfiguredSizeAndOverlap() {
        String text = generatedText(new Random(42));
        int[][] configs = {{200, 0}, {200, 50}, {80, 30}, {40, 15}, {13, 5}, {500, 120}};
        for (Boundary boundary : Boundary.values()) {
            for (int[] config : configs) {
                DocumentSplitter characters = DocumentSplitter.builder().boundary(boundary)
                        .maxSize(config[0]).overlap(config[1]).build();
                assertCovers(text, characters.split("doc", text), config[0], config[1],
                        s -> s.codePointCount(0, s.length()));
                DocumentSplitter tokens = DocumentSplitter.builder().boundary(boundary)
                        .sizeInTokens(TokenCounter.estimate()).maxSize(config[0] / 4 + 2).overlap(config[1] / 4)
                        .build();
                assertCovers(text, tokens.split("doc", text), config[0] / 4 + 2, config[1] / 4,
                        TokenCounter.estimate()::count);
            }
        }
    }

    private static void assertCovers(String text, List<Candidate> chunks, int maxSize, int overlap,
                                     java.util.function.ToIntFunction<String> size) {
        assertThat(chunks).isNotEmpty();
        int overlapping = 0;
        for (int i = 0; i < chunks.size(); i++) {
            Candidate chunk = chunks.get(i);
            int start = (Integer) chunk.metadata().get(DocumentSplitter.START_OFFSET);
            int end = (Integer) chunk.metadata().get(DocumentSplitter.END_OFFSET);
            assertThat(chunk.metadata()).containsEntry(DocumentSplitter.CHUNK_INDEX, i);
            assertThat(chunk.content()).isEqualTo(text.substring(start, end)).isEqualTo(chunk.content().strip());
            assertThat(size.applyAsInt(chunk.content())).isLessThanOrEqualTo(maxSize);
            if (i == 0) {
                assertThat(text.substring(0, start)).isBlank();
            } else {
                int previousStart = (Integer) chunks.get(i - 1).metadata().get(DocumentSplitter.START_OFFSET);
                int previousEnd = (Integer) chunks.get(i - 1).metadata().get(DocumentSplitter.END_OFFSET);
                assertThat(start).isGreaterThan(previousStart);
                assertThat(end).isGreaterThan(previousEnd);
                if (start >= previousEnd) {
                    assertThat(text.substring(previousEnd, start)).isBlank(); // no gap but whitespace
                } else {
                    overlapping++;
                    assertThat(size.applyAsInt(text.substring(start, previousEnd))).isLessThanOrEqualTo(overlap);
                }
            }
            if (i == chunks.size() - 1) {
                assertThat(text.substring(end)).isBlank();
            }
        }
        if (overlap == 0) {
            assertThat(overlapping).isZero();
        } else if (chunks.size() > 10) {
            assertThat(overlapping).isPositive();
        }
    }

    /** Paragraphs of sentences of words of varied length, with an occasional very long word. */
    private static String generatedText(Random random) {
        StringBuilder text = new StringBuilder();
        for (int p = 0; p < 12; p++) {
            int sentences = 1 + random.nextInt(6);
            for (int s = 0; s < sentences; s++) {
                int words = 1 + random.nextInt(14);
                for (int w = 0; w < words; w++) {
                    int length = random.nextInt(30) == 0 ? 25 + random.nextInt(40) : 1 + random.nextInt(9);
                    for (int c = 0; c < length; c++) {
                        text.append((char) ('a' + random.nextInt(26)));
                    }
                    text.append(w == words - 1 ? "" : random.nextInt(10) == 0 ? ",\n" : " ");
                }
                text.append(random.nextBoolean() ? ". " : "?  ");
            }
            text.append(random.nextBoolean() ? "\n\n" : "\n \n\n");
        }
        return text.toString();
    }

    @Test
    void invalidSizesAreRefusedAtBuild() {
        assertConfigInvalid(() -> DocumentSplitter.builder().maxSize(0).build());
        assertConfigInvalid(() -> DocumentSplitter.builder().maxSize(10).overlap(10).build());
        assertConfigInvalid(() -> DocumentSplitter.builder().overlap(-1).build());
    }
}
