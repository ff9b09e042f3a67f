package dev.pagantic.memory;

import static dev.pagantic.memory.Failures.assertConfigInvalid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.ToolCall;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryPolicyTest {

    @Test
    void defaultsPersistTheConversationAndKeepRetrievedContextEphemeral() {
        MemoryPolicy policy = MemoryPolicy.defaults();

        assertThat(policy.persists(ArtifactKind.USER_MESSAGE)).isTrue();
        assertThat(policy.persists(ArtifactKind.ASSISTANT_MESSAGE)).isTrue();
        assertThat(policy.persists(ArtifactKind.TOOL_CALL)).isTrue();
        assertThat(policy.persists(ArtifactKind.TOOL_RESULT)).isTrue();
        assertThat(policy.persists(ArtifactKind.SESSION_STATE)).isTrue();
        assertThat(policy.retention(ArtifactKind.SYSTEM_PROMPT)).isEqualTo(Retention.CONVERSATION);
        assertThat(policy.isEphemeral(ArtifactKind.RETRIEVED_CONTEXT)).isTrue();
        assertThat(policy.isEphemeral(ArtifactKind.INTERMEDIATE_OUTPUT)).isTrue();
        assertThat(policy.keepsAcrossTurns(ArtifactKind.RETRIEVED_CONTEXT)).isFalse();
    }

    @Test
    void messagesAreClassifiedByRole() {
        MemoryPolicy policy = MemoryPolicy.defaults();
        Message call = Message.assistant("", List.of(ToolCall.of("c1", "t", Map.of())));

        assertThat(ArtifactKind.of(Message.system("s"))).isEqualTo(ArtifactKind.SYSTEM_PROMPT);
        assertThat(ArtifactKind.of(Message.user("u"))).isEqualTo(ArtifactKind.USER_MESSAGE);
        assertThat(ArtifactKind.of(Message.assistant("a"))).isEqualTo(ArtifactKind.ASSISTANT_MESSAGE);
        assertThat(ArtifactKind.of(call)).isEqualTo(ArtifactKind.TOOL_CALL);
        assertThat(ArtifactKind.of(Message.toolResult("c1", "t", "r"))).isEqualTo(ArtifactKind.TOOL_RESULT);
        assertThat(policy.retention(call)).isEqualTo(Retention.DURABLE);
    }

    @Test
    void keepingRetrievedContextIsAPolicyDecision() {
        MemoryPolicy policy = MemoryPolicy.builder().retain(ArtifactKind.RETRIEVED_CONTEXT, Retention.CONVERSATION)
                .build();
        assertThat(policy.keepsAcrossTurns(ArtifactKind.RETRIEVED_CONTEXT)).isTrue();
        assertThat(policy).isNotEqualTo(MemoryPolicy.defaults());
        assertThat(policy.toBuilder().retain(ArtifactKind.RETRIEVED_CONTEXT, Retention.TURN).build())
                .isEqualTo(MemoryPolicy.defaults());
    }

    @Test
    void inProcessOnlyPersistsNothing() {
        MemoryPolicy policy = MemoryPolicy.inProcessOnly();
        for (ArtifactKind kind : ArtifactKind.values()) {
            assertThat(policy.persists(kind)).as(kind.name()).isFalse();
        }
        assertThat(policy.keepsAcrossTurns(ArtifactKind.USER_MESSAGE)).isTrue();
    }

    @Test
    void toolCallsAndResultsMustBeKeptAlikeAndSessionStateCannotBeEphemeral() {
        assertConfigInvalid(() -> MemoryPolicy.builder().retain(ArtifactKind.TOOL_CALL, Retention.TURN).build());
        assertConfigInvalid(() -> MemoryPolicy.builder().retain(ArtifactKind.SESSION_STATE, Retention.TURN).build());
        assertThat(MemoryPolicy.builder().toolExchanges(Retention.TURN).build().isEphemeral(ArtifactKind.TOOL_RESULT))
                .isTrue();
    }
}
