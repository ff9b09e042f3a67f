package dev.pagantic.orchestrate.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.context.ContextBuilder;
import dev.pagantic.core.Candidate;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.ports.RerankInput;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextIRTest {

    private static final List<Candidate> CHUNKS = List.of(
            Candidate.of("Interfaces are implicit.", "spec.md").withScore(2.0),
            Candidate.of("Embedding composes types.", "faq.md").withScore(1.5),
            Candidate.of("Method sets decide.", "spec.md").withScore(1.0));

    @Test
    void retrievedChunksKeepTheirOrderAndProvenance() {
        ContextIR context = ContextIR.of("interfaces", CHUNKS);

        assertThat(context.query()).isEqualTo("interfaces");
        assertThat(context.chunks()).extracting(Candidate::source).containsExactly("spec.md", "faq.md", "spec.md");
        assertThat(context.chunks()).extracting(Candidate::score).containsExactly(2.0, 1.5, 1.0);
        assertThat(context.chunks()).isEqualTo(CHUNKS);
    }

    @Test
    void sourcesAreDistinctInOrderOfFirstAppearance() {
        assertThat(ContextIR.of(CHUNKS).sources()).containsExactly("spec.md", "faq.md");
    }

    @Test
    void asMessagesTheContextIsTheContextLayersRelevantContextMessage() {
        List<Message> messages = ContextIR.of(CHUNKS).toMessages();

        assertThat(messages).containsExactly(Message.system(ContextBuilder.render(CHUNKS)));
        assertThat(messages.get(0).content()).startsWith("Relevant context:\n\n[1] (spec.md): Interfaces are implicit.");
    }

    @Test
    void emptyContextProducesNoMessages() {
        ContextIR empty = ContextIR.of(List.of());

        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.toMessages()).isEmpty();
        assertThat(empty.query()).isEmpty();
    }

    @Test
    void theContextBecomesARerankInputForTheSameQuery() {
        RerankInput input = ContextIR.of("interfaces", CHUNKS).toRerankInput();

        assertThat(input.query()).isEqualTo("interfaces");
        assertThat(input.candidates()).extracting(Candidate::content)
                .containsExactly("Interfaces are implicit.", "Embedding composes types.", "Method sets decide.");
    }

    @Test
    void nullQueryOrChunksAreRefused() {
        assertThatThrownBy(() -> new ContextIR(null, List.of())).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> ContextIR.of(null)).isInstanceOf(PaganticException.class);
    }
}
