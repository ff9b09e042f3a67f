package dev.pagantic.prompt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextPolicyTest {

    private static final List<ContextSnippet> SNIPPETS = List.of(
            new ContextSnippet("faq.md", "Returns are free within 30 days."),
            new ContextSnippet("policy.pdf", "Refunds take 5 business days."),
            ContextSnippet.of("Support is open 9-17."));

    @Test
    void rendersTheSpecificationsContextFormat() {
        assertThat(ContextPolicy.defaults().render(SNIPPETS)).isEqualTo("Relevant context:\n\n"
                + "[1] (faq.md): Returns are free within 30 days.\n"
                + "[2] (policy.pdf): Refunds take 5 business days.\n"
                + "[3] Support is open 9-17.");
        assertThat(ContextPolicy.defaults().render(List.of())).isEmpty();
    }

    @Test
    void characterBudgetKeepsTheLeadingSnippetsThatFitWhole() {
        String two = "Relevant context:\n\n[1] (faq.md): Returns are free within 30 days.\n"
                + "[2] (policy.pdf): Refunds take 5 business days.";
        ContextPolicy exact = ContextPolicy.builder().maxChars(two.length()).build();
        assertThat(exact.render(SNIPPETS)).isEqualTo(two);
        assertThat(exact.fit(SNIPPETS)).containsExactly(SNIPPETS.get(0), SNIPPETS.get(1));

        ContextPolicy tooSmall = ContextPolicy.builder().maxChars(10).build();
        assertThat(tooSmall.render(SNIPPETS)).isEmpty();
    }

    @Test
    void aSnippetThatDoesNotFitEndsTheBlockSoLowerRankedOnesNeverDisplaceIt() {
        List<ContextSnippet> snippets = List.of(ContextSnippet.of("short"), ContextSnippet.of("x".repeat(100)),
                ContextSnippet.of("tiny"));
        ContextPolicy policy = ContextPolicy.builder().maxChars(40).build();
        assertThat(policy.render(snippets)).isEqualTo("Relevant context:\n\n[1] short");
    }

    @Test
    void tokenBudgetUsesTheGivenCounter() {
        // one token per line, for a hand-checkable count
        ContextPolicy policy = ContextPolicy.builder().maxTokens(4)
                .tokenCounter(text -> (int) text.lines().count()).build();
        // header, blank line, [1], [2] = 4 lines; [3] would be the 5th
        assertThat(policy.fit(SNIPPETS)).hasSize(2);
    }

    @Test
    void placesContextPerPlacement() {
        List<Message> conversation = List.of(Message.system("Be helpful."), Message.user("hi"),
                Message.assistant("hello"), Message.user("refund?"));
        List<ContextSnippet> one = List.of(new ContextSnippet("faq.md", "Refunds take 5 days."));
        String block = "Relevant context:\n\n[1] (faq.md): Refunds take 5 days.";

        assertThat(policy(ContextPolicy.Placement.SYSTEM_PROMPT).apply(conversation, one)).containsExactly(
                Message.system("Be helpful.\n\n" + block), Message.user("hi"), Message.assistant("hello"),
                Message.user("refund?"));
        assertThat(policy(ContextPolicy.Placement.BEFORE_USER_MESSAGE).apply(conversation, one)).containsExactly(
                Message.system("Be helpful."), Message.user("hi"), Message.assistant("hello"), Message.system(block),
                Message.user("refund?"));
        assertThat(policy(ContextPolicy.Placement.IN_USER_MESSAGE).apply(conversation, one)).containsExactly(
                Message.system("Be helpful."), Message.user("hi"), Message.assistant("hello"),
                Message.user(block + "\n\nrefund?"));
        assertThat(policy(ContextPolicy.Placement.OMIT).apply(conversation, one)).isEqualTo(conversation);
        assertThat(policy(ContextPolicy.Placement.SYSTEM_PROMPT).apply(List.of(Message.user("q")), one))
                .containsExactly(Message.system(block), Message.user("q"));
        assertThat(policy(ContextPolicy.Placement.BEFORE_USER_MESSAGE).apply(conversation, List.of()))
                .isEqualTo(conversation);
    }

    @Test
    void customHeaderAndValidation() {
        assertThat(ContextPolicy.builder().header("Sources:").build().render(List.of(ContextSnippet.of("a"))))
                .isEqualTo("Sources:\n\n[1] a");
        for (ContextPolicy.Builder bad : List.of(ContextPolicy.builder().maxChars(-1),
                ContextPolicy.builder().maxTokens(-1), ContextPolicy.builder().header(" "))) {
            assertThatThrownBy(bad::build).isInstanceOfSatisfying(PaganticException.class,
                    e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        }
    }

    private static ContextPolicy policy(ContextPolicy.Placement placement) {
        return ContextPolicy.builder().placement(placement).build();
    }
}
