package dev.pagantic.orchestrate.ports;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.structured.SpecializedLoop;
import dev.pagantic.prompt.ContextPolicy;
import dev.pagantic.testkit.ScriptedEngine;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextPlacementTest {

    private static final Message CONTEXT = Message.system("Paris is in France.");

    @Test
    void defaultPlacementPutsTheContextJustBeforeTheLatestUserMessage() {
        List<Message> placed = ContextPlacement.BEFORE_USER_MESSAGE.place(
                List.of(Message.system("sys"), Message.user("a"), Message.assistant("b"), Message.user("c")),
                List.of(CONTEXT));

        assertThat(placed).containsExactly(Message.system("sys"), Message.user("a"), Message.assistant("b"), CONTEXT,
                Message.user("c"));
        assertThat(ContextPlacement.BEFORE_USER_MESSAGE.place(List.of(Message.system("sys")), List.of(CONTEXT)))
                .containsExactly(Message.system("sys"), CONTEXT);
    }

    @Test
    void contextPolicyDecidesThatTheContextJoinsTheSystemPromptAndItIsStillNeverStored() {
        ScriptedEngine engine = ScriptedEngine.replying("It is in France.");
        ContextPlacement inSystemPrompt = ContextPlacement.of(ContextPolicy.builder()
                .placement(ContextPolicy.Placement.SYSTEM_PROMPT).build());
        AgentLoop agent = AgentLoop.builder().engine(engine).systemPrompt("Be brief.")
                .contextProvider((ctx, query) -> List.of(CONTEXT)).contextPlacement(inSystemPrompt).build();

        agent.chat(CallContext.background(), "Where is Paris?");

        List<Message> sent = engine.lastRequest().orElseThrow().messages();
        assertThat(sent).hasSize(2);
        assertThat(sent.get(0).content()).startsWith("Be brief.").contains("Relevant context:")
                .contains("Paris is in France.");
        assertThat(agent.messages()).containsExactly(Message.system("Be brief."), Message.user("Where is Paris?"),
                Message.assistant("It is in France."));
    }

    @Test
    void omittingPolicyLeavesTheContextOutOfTheRequest() {
        ScriptedEngine engine = ScriptedEngine.replying("{\"city\":\"Paris\"}");
        SpecializedLoop loop = SpecializedLoop.builder().engine(engine)
                .schema(dev.pagantic.core.Schema.object().required("city", dev.pagantic.core.Schema.string()).build())
                .contextProvider((ctx, query) -> List.of(CONTEXT))
                .contextPlacement(ContextPlacement.of(ContextPolicy.builder()
                        .placement(ContextPolicy.Placement.OMIT).build()))
                .build();

        loop.call("Which city?");

        assertThat(engine.lastRequest().orElseThrow().messages()).containsExactly(Message.user("Which city?"));
    }
}
