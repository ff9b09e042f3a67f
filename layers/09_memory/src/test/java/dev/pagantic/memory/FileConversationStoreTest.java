package dev.pagantic.memory;

import static dev.pagantic.memory.Failures.assertConfigInvalid;
import static dev.pagantic.memory.Failures.assertFailsWith;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file store's own behaviour: its journal format, recovery and compaction. What every store does is checked by
 * the conversation-store kit ({@code pagantic-memory-tck}), whose tests run it against this store too.
 */
class FileConversationStoreTest {

    @TempDir
    Path directory;

    private ConversationStore store;

    @BeforeEach
    void openStore() {
        store = createStore();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private ConversationStore createStore() {
        return FileConversationStore.open(directory);
    }

    private static Message toolCall(String id) {
        return Message.assistant("let me look", List.of(ToolCall.of(id, "lookup", Map.of("city", "Paris"))));
    }

    private FileConversationStore fileStore() {
        return (FileConversationStore) store;
    }

    private StoredSession reopen(String sessionId) {
        store.close();
        store = createStore();
        return store.load(sessionId);
    }

    @Test
    void reopeningReplaysOneRecordPerCommit() {
        store.append("s", List.of(Message.system("sys"), Message.user("q"), toolCall("c1"),
                Message.toolResult("c1", "lookup", "r")));
        store.putState("s", "city", "Paris");
        store.putState("s", "n", 7);
        store.removeState("s", "n");

        StoredSession after = reopen("s");

        assertThat(after.state()).containsExactly(Map.entry("city", "Paris"));
        assertThat(after.recovery().recordsRecovered()).isEqualTo(4);
    }

    @Test
    void theJournalHasTheDocumentedFormat() throws IOException {
        store.append("s", Message.user("hi"));
        byte[] bytes = Files.readAllBytes(fileStore().journalPath("s"));
        ByteBuffer buffer = ByteBuffer.wrap(bytes);

        assertThat(Arrays.copyOf(bytes, 4)).isEqualTo("PGMJ".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        assertThat(buffer.getInt(4)).isEqualTo(1);
        int length = buffer.getInt(8);
        assertThat(bytes).hasSize(16 + length);
        assertThat(buffer.getInt(12)).isEqualTo(SessionJournal.checksum(length, bytes, 16));
        assertThat(new String(bytes, 16, length, java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("{\"t\":\"messages\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    }

    @Test
    void aTornTailIsCutOffAndNewCommitsFollowTheValidRecords() throws IOException {
        for (int i = 0; i < 5; i++) {
            store.append("s", Message.user("m" + i));
        }
        store.close();
        Path journal = fileStore().journalPath("s");
        long valid = Files.size(journal);
        // A sixth record whose write was cut short by a crash.
        byte[] payload = JournalCodec.encode(new JournalRecord.Messages(List.of(Message.user("torn"))));
        ByteBuffer frame = SessionJournal.frame(payload);
        byte[] partial = Arrays.copyOf(frame.array(), frame.capacity() - 3);
        Files.write(journal, partial, StandardOpenOption.APPEND);

        store = createStore();
        StoredSession session = store.load("s");

        assertThat(session.messages()).extracting(Message::content).containsExactly("m0", "m1", "m2", "m3", "m4");
        assertThat(session.recovery().status()).isEqualTo(RecoveryReport.Status.TORN_TAIL_TRUNCATED);
        assertThat(session.recovery().problemOffset()).hasValue(valid);
        assertThat(session.recovery().discardedBytes()).isEqualTo(partial.length);
        assertThat(session.recovery().preservedCopy()).isEmpty();
        assertThat(Files.size(journal)).isEqualTo(valid);

        store.append("s", Message.user("m5"));
        assertThat(reopen("s").messages()).extracting(Message::content)
                .containsExactly("m0", "m1", "m2", "m3", "m4", "m5");
        assertThat(store.load("s").recovery().isClean()).isTrue();
    }

    @Test
    void aCorruptedByteInTheMiddleRecoversTheValidPrefixAndReportsTheCorruption() throws IOException {
        long[] offsets = new long[10];
        Path journal = fileStore().journalPath("s");
        for (int i = 0; i < 10; i++) {
            store.append("s", Message.user("message number " + i));
            offsets[i] = Files.size(journal);
        }
        store.close();
        byte[] original = Files.readAllBytes(journal);
        byte[] damaged = original.clone();
        int target = (int) offsets[4] + 8 + 5; // inside the payload of the sixth record (index 5)
        damaged[target] ^= 0x20;
        Files.write(journal, damaged);

        store = createStore();
        StoredSession session = store.load("s");

        assertThat(session.messages()).extracting(Message::content).containsExactly("message number 0",
                "message number 1", "message number 2", "message number 3", "message number 4");
        RecoveryReport report = session.recovery();
        assertThat(report.status()).isEqualTo(RecoveryReport.Status.CORRUPTION_TRUNCATED);
        assertThat(report.problem()).contains("checksum");
        assertThat(report.problemOffset()).hasValue(offsets[4]);
        assertThat(report.recordsRecovered()).isEqualTo(5);
        assertThat(report.discardedBytes()).isEqualTo(original.length - offsets[4]);
        assertThat(report.preservedCopy()).isPresent();
        assertThat(Files.readAllBytes(report.preservedCopy().get())).isEqualTo(damaged);

        store.append("s", Message.user("after repair"));
        assertThat(reopen("s").messages()).hasSize(6);
    }

    @Test
    void aFileThatIsNotAJournalIsPreservedAndTheSessionStartsEmpty() throws IOException {
        Path journal = fileStore().journalPath("s");
        Files.writeString(journal, "this is not a journal at all");

        StoredSession session = store.load("s");

        assertThat(session.isEmpty()).isTrue();
        assertThat(session.recovery().status()).isEqualTo(RecoveryReport.Status.CORRUPTION_TRUNCATED);
        assertThat(session.recovery().problem()).isEqualTo("not a journal");
        assertThat(Files.readString(session.recovery().preservedCopy().orElseThrow()))
                .isEqualTo("this is not a journal at all");
        store.append("s", Message.user("fresh"));
        assertThat(reopen("s").messages()).containsExactly(Message.user("fresh"));
    }

    @Test
    void compactionRewritesTheJournalAsFewRecords() {
        for (int i = 0; i < 300; i++) {
            store.append("s", Message.user("m" + i));
        }
        for (int i = 0; i < 50; i++) {
            store.putState("s", "k" + (i % 3), i);
        }
        assertThat(fileStore().records("s")).isEqualTo(350);

        store.compact("s");

        assertThat(fileStore().records("s")).isEqualTo(3); // 256 + 44 messages, one state record
        StoredSession after = reopen("s");
        assertThat(after.messages()).hasSize(300);
        assertThat(after.state()).containsExactly(Map.entry("k0", 48L), Map.entry("k1", 49L), Map.entry("k2", 47L));
        assertThat(after.recovery().recordsRecovered()).isEqualTo(3);
    }

    @Test
    void aCrashAfterTheCompactedCopyIsWrittenLeavesTheOldJournalComplete() throws IOException {
        List<Message> expected = fill();
        fileStore().compact("s", SessionJournal.CompactionStep.WRITTEN);
        Path journal = fileStore().journalPath("s");
        assertThat(SessionJournal.compactPath(journal)).exists();
        store.close(); // the crash: nothing after the write happens

        StoredSession session = reopen("s");

        assertThat(session.messages()).isEqualTo(expected);
        assertThat(session.state()).containsEntry("k", "v");
        assertThat(session.recovery().recordsRecovered()).isEqualTo(21); // the old journal
        assertThat(SessionJournal.compactPath(journal)).doesNotExist();
    }

    @Test
    void aCrashWhileTheCompactedCopyIsBeingWrittenLeavesTheOldJournalComplete() throws IOException {
        List<Message> expected = fill();
        fileStore().compact("s", SessionJournal.CompactionStep.WRITTEN);
        Path journal = fileStore().journalPath("s");
        Path copy = SessionJournal.compactPath(journal);
        byte[] written = Files.readAllBytes(copy);
        Files.write(copy, Arrays.copyOf(written, written.length / 2)); // the copy was half-written
        store.close();

        StoredSession session = reopen("s");

        assertThat(session.messages()).isEqualTo(expected);
        assertThat(session.recovery().isClean()).isTrue();
        assertThat(copy).doesNotExist();
    }

    @Test
    void aCrashAfterTheRenameLeavesTheNewJournalComplete() {
        List<Message> expected = fill();
        fileStore().compact("s", SessionJournal.CompactionStep.RENAMED);
        store.close(); // the crash: the directory was not forced

        StoredSession session = reopen("s");

        assertThat(session.messages()).isEqualTo(expected);
        assertThat(session.state()).containsEntry("k", "v");
        assertThat(session.recovery().recordsRecovered()).isEqualTo(2); // the compacted journal
        assertThat(session.recovery().isClean()).isTrue();
    }

    @Test
    void aSecondStoreCannotOpenASessionThatIsOpen() {
        store.append("s", Message.user("x"));
        try (FileConversationStore other = FileConversationStore.open(directory)) {
            assertFailsWith(ErrorCode.ORCHESTRATION_CONCURRENT_USE, () -> other.load("s"));
            other.append("t", Message.user("a different session is fine"));
        }
    }

    @Test
    void sessionIdsRoundTripThroughFileNames() {
        for (String id : List.of("plain", "with space", "a/b\\c", "..", "é-ü_中", "%41")) {
            String name = FileConversationStore.encode(id);
            assertThat(name).matches("[A-Za-z0-9_%-]+");
            assertThat(FileConversationStore.decode(name)).contains(id);
        }
        assertThat(FileConversationStore.decode("%4")).isEmpty();
        assertThat(FileConversationStore.decode("not.encoded")).isEmpty();
    }

    @Test
    void oversizedRecordsAndBadConfigurationAreRefused() throws IOException {
        try (FileConversationStore small = FileConversationStore.builder().directory(directory.resolve("small"))
                .maxRecordBytes(1024).build()) {
            assertConfigInvalid(() -> small.append("s", Message.user("x".repeat(2000))));
            assertThat(small.load("s").messages()).isEmpty();
        }
        assertConfigInvalid(() -> FileConversationStore.builder().build());
        assertConfigInvalid(() -> FileConversationStore.builder().directory(directory).maxRecordBytes(10).build());
        Path file = Files.writeString(directory.resolve("a-file"), "x");
        assertConfigInvalid(() -> FileConversationStore.open(file));
    }

    @Test
    void withoutFsyncCommitsStillReachTheFile() {
        store.close();
        store = FileConversationStore.builder().directory(directory).fsync(false).build();
        store.append("s", Message.user("x"));
        assertThat(reopen("s").messages()).containsExactly(Message.user("x"));
    }

    private List<Message> fill() {
        for (int i = 0; i < 20; i++) {
            store.append("s", Message.user("m" + i));
        }
        store.putState("s", "k", "v");
        return store.load("s").messages();
    }

    static long countFiles(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.count();
        }
    }
}
