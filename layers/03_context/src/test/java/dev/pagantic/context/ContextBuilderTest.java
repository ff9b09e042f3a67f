package dev.pagantic.context;

import static dev.pagantic.context.Bm25RetrieverTest.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ContextBuilderTest {

    /** The shape of orchestrate's ContextProvider port, declared here as orchestrate declares it. */
    @FunctionalInterface
    interface ContextProvider {
        List<Message> build(CallContext ctx, String query);
    }

    private static final List<Candidate> TWO = List.of(
            Candidate.of("Interfaces are satisfied implicitly.", "guide.md"),
            Candidate.of("Keep interfaces small.", "faq.md"));

    @Test
    void outputIsTheSpecificationsExactFormat() {
        ContextBuilder builder = ContextBuilder.builder().retriever((ctx, query, limit) -> TWO).build();

        List<Message> messages = builder.build(CallContext.background(), "interfaces");

        assertThat(messages).hasSize(1);
        assertThat(messages.get(0).role()).isEqualTo(Role.SYSTEM);
        assertThat(messages.get(0).content()).isEqualTo("Relevant context:\n\n"
                + "[1] (guide.md): Interfaces are satisfied implicitly.\n"
                + "[2] (faq.md): Keep interfaces small.");
    }

    @Test
    void aSingleChunkHasNoTrailingNewline() {
        assertThat(ContextBuilder.render(List.of(Candidate.of("a\nb", "s"))))
                .isEqualTo("Relevant context:\n\n[1] (s): a\nb");
    }

    @Test
    void itsMethodReferenceSatisfiesTheContextProviderShape() {
        ContextBuilder builder = ContextBuilder.builder().retriever((ctx, query, limit) -> TWO).build();

        ContextProvider provider = builder::build;

        assertThat(provider.build(CallContext.background(), "q")).isEqualTo(builder.build("q"));
    }

    @Test
    void maxChunksIsTheRetrievalLimitAndIsEnforced() {
        AtomicInteger asked = new AtomicInteger();
        List<Candidate> three = List.of(Candidate.of("one", "1"), Candidate.of("two", "2"), Candidate.of("three", "3"));
        ContextBuilder builder = ContextBuilder.builder().maxChunks(2).retriever((ctx, query, limit) -> {
            asked.set(limit);
            return three; // a retriever that ignores its limit
        }).build();

        String content = builder.build("q").get(0).content();

        assertThat(asked).hasValue(2);
        assertThat(content).isEqualTo("Relevant context:\n\n[1] (1): one\n[2] (2): two");
    }

    @Test
    void noRetrievedChunksGiveNoContextMessage() {
        ContextBuilder builder = ContextBuilder.builder().retriever((ctx, query, limit) -> List.of()).build();

        assertThat(builder.build("q")).isEmpty();
    }

    @Test
    void worksEndToEndOverBm25() {
        Bm25Retriever bm25 = Bm25Retriever.builder()
                .add("go.md", "Go interfaces are satisfied implicitly.")
                .add("java.md", "Java interfaces are implemented explicitly.")
                .add("rust.md", "Rust has traits.")
                .build();
        ContextProvider provider = ContextBuilder.builder().retriever(bm25).maxChunks(1).build()::build;

        assertThat(provider.build(CallContext.background(), "implicitly satisfied").get(0).content())
                .isEqualTo("Relevant context:\n\n[1] (go.md): Go interfaces are satisfied implicitly.");
    }

    @Test
    void aCancelledContextStopsBeforeRetrieval() {
        AtomicInteger calls = new AtomicInteger();
        ContextBuilder builder = ContextBuilder.builder().retriever((ctx, query, limit) -> {
            calls.incrementAndGet();
            return TWO;
        }).build();

        assertThatThrownBy(() -> builder.build(Contexts.cancelled(), "q"))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CANCELLED_SIGNAL));
        assertThat(calls).hasValue(0);
    }

    @Test
    void aMissingRetrieverOrANonPositiveMaxChunksIsRefusedAtBuild() {
        assertConfigInvalid(() -> ContextBuilder.builder().build());
        assertConfigInvalid(() -> ContextBuilder.builder().retriever((c, q, l) -> TWO).maxChunks(0).build());
        assertThat(ContextBuilder.builder().retriever((c, q, l) -> TWO).build().maxChunks())
                .isEqualTo(ContextBuilder.DEFAULT_MAX_CHUNKS);
    }
}
