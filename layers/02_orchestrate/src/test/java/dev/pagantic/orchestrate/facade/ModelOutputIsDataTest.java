package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Model output is data, never a template or code to pagantic: text that looks like the prompt layer's placeholders
 * ({@code {{system}}}), shell/EL interpolation ({@code ${...}}) or escapes, when fed into the next turn, a later plan
 * step or a tool's arguments, arrives there byte for byte; plan steps that take an earlier step's output substitute it
 * once, not recursively.
 */
class ModelOutputIsDataTest {

    /** One "word" (the scripted engine streams word by word, so the payload has no spaces). */
    private static final String PAYLOAD = "{{system}}${API_KEY}#{1+1}\\{{x}}{{request}}{{";

    @Test
    void templateSyntaxInAnAnswerReachesTheNextTurnLiterally() {
        ScriptedEngine engine = ScriptedEngine.replying(PAYLOAD, "ok");
        try (Orchestrator facade = Orchestrator.builder().engine(engine).systemPrompt("You are {{name}}.").build()) {
            SystemResponse first = facade.execute(SystemRequest.builder().sessionId("s").user("hi").build());
            facade.execute(SystemRequest.builder().sessionId("s").user("again").build());

            assertThat(first.content()).isEqualTo(PAYLOAD);
            List<Message> second = engine.requests().get(1).messages();
            assertThat(second).contains(Message.assistant(PAYLOAD));
            assertThat(second.get(0)).isEqualTo(Message.system("You are {{name}}."));
        }
    }

    @Test
    void templateSyntaxInToolArgumentsReachesTheToolLiterally() {
        List<Object> received = new CopyOnWriteArrayList<>();
        Tool echo = Tool.builder(ToolDefinition.of("search", "Searches",
                        Schema.object().required("q", Schema.string()).build()))
                .handler((ctx, args) -> {
                    received.add(args.get("q"));
                    return "result for " + args.get("q");
                }).build();
        ScriptedEngine engine = ScriptedEngine.builder().replyCallingTool("search", Map.of("q", PAYLOAD))
                .reply("done").build();
        try (Orchestrator facade = Orchestrator.builder().engine(engine).tools(ToolRegistry.of(echo)).build()) {
            facade.execute(SystemRequest.builder().user("find").build());

            assertThat(received).containsExactly(PAYLOAD);
            assertThat(engine.lastRequest().orElseThrow().messages()).filteredOn(m -> m.role() == Role.TOOL)
                    .extracting(Message::content).containsExactly("result for " + PAYLOAD);
        }
    }

    @Test
    void aPlanStepGetsTheEarlierOutputOnceAndVerbatim() {
        // step one answers text naming step one's own output and the request; step two must see exactly that text
        ScriptedEngine engine = ScriptedEngine.replying(PAYLOAD + "{{first}}", "final");
        try (Orchestrator facade = Orchestrator.builder().engine(engine).planner(StaticPlanner.fromJson("""
                {"rationale": "two steps", "steps": [
                  {"name": "first", "type": "infer", "input": "Say {{first}} and ${HOME}"},
                  {"name": "second", "type": "infer"}]}""")).build()) {
            SystemResponse response = facade.execute(SystemRequest.builder().mode(Mode.PLAN).user("go").build());

            assertThat(response.error()).isEmpty();
            assertThat(engine.requests().get(0).messages()).containsExactly(Message.user("Say {{first}} and ${HOME}"));
            assertThat(engine.requests().get(1).messages()).containsExactly(Message.user(PAYLOAD + "{{first}}"));
            assertThat(response.structuredOutput()).contains(Map.of("first", PAYLOAD + "{{first}}", "second",
                    "final"));
        }
    }
}
