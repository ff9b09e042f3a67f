package dev.pagantic.orchestrate.facade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.observe.InMemoryEventLog;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.plan.PlanPolicy;
import dev.pagantic.orchestrate.plan.StepType;
import dev.pagantic.orchestrate.spi.Interceptor;
import dev.pagantic.orchestrate.spi.Invocation;
import dev.pagantic.orchestrate.spi.InvocationKind;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every inference of every mode, planner and plan step goes through orchestrate's one inference path: the
 * interceptor sees it, and it is recorded as an {@code inference_start} and an {@code inference_end} with every field
 * of seed 001 present, the request's hints applied.
 */
class EveryInferenceTest {

    private static final Schema ANSWER = Schema.object().required("answer", Schema.string()).build();
    private static final String JSON = "{\"answer\": \"yes\"}";
    private static final String PLAN = "{\"rationale\": \"one step\", \"steps\": [{\"name\": \"answer\","
            + " \"type\": \"infer\"}]}";
    private static final List<String> START_FIELDS = List.of("model", "message_count", "tool_defs_count",
            "schema_present", "grammar_present", "temperature");
    private static final List<String> END_FIELDS = List.of("duration_ms", "tokens_in", "tokens_out", "finish_reason",
            "tool_call_count");

    /** A mode, the replies its inferences get, and the request that runs it. */
    record Case(String name, List<String> replies, SystemRequest request) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> everyMode() {
        ExecutionHints hints = ExecutionHints.builder().maxTokens(77).temperature(0.4).seed(9).build();
        SystemRequest.Builder base = SystemRequest.builder().requestId("r").hints(hints);
        return Stream.of(
                new Case("chat with a tool round and a session", List.of("", "done"),
                        base.sessionId("s").user("use the tool").build()),
                new Case("structured with a tool phase", List.of("gathered", JSON),
                        base.sessionId("").mode(Mode.STRUCTURED).output(OutputContract.of(ANSWER)).user("q").build()),
                new Case("redundant, each replica with a tool phase", List.of("g", JSON, "g", JSON, "g", JSON),
                        base.mode(Mode.REDUNDANT).output(OutputContract.of(ANSWER)).user("q").build()),
                new Case("plan: the planner and an infer step", List.of(PLAN, "answered"),
                        base.mode(Mode.PLAN).output(OutputContract.none()).user("q").build()),
                new Case("adversarial", List.of("plan", "critique", "refined"),
                        base.mode(Mode.ADVERSARIAL).user("q").build()),
                new Case("vote", List.of("a", "{\"selected\": 0, \"reason\": \"only one\"}"),
                        base.mode(Mode.VOTE).directive(Directive.builder().voters("default").build()).user("q")
                                .build()),
                new Case("refine", List.of("v0", "v1", "v2"),
                        base.mode(Mode.REFINE).directive(Directive.NONE).user("q").build()))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyMode")
    void everyInferenceIsInterceptedAndRecordedWithEverySeed001Field(Case mode) {
        ScriptedEngine.Builder script = ScriptedEngine.builder();
        if (mode.request().mode() == Mode.CHAT) {
            script.replyCallingTool("probe", Map.of());
        }
        mode.replies().stream().filter(reply -> !reply.isEmpty()).forEach(script::reply);
        ScriptedEngine engine = script.build();
        InMemoryEventLog log = EventLog.inMemory();
        List<Invocation<?>> intercepted = new CopyOnWriteArrayList<>();
        Interceptor recording = new Interceptor() {
            @Override
            public <T> T intercept(Invocation<T> invocation) {
                intercepted.add(invocation);
                return invocation.proceed();
            }
        };
        LlmPlanner planner = LlmPlanner.builder().engine(engine).interceptor(recording).eventLog(log)
                .registeredStepTypes(StepType.INFER).policy(PlanPolicy.builder().maxSteps(2).build()).build();
        Tool probe = Tool.builder(ToolDefinition.of("probe", "a probe", Schema.object().build()))
                .handler((ctx, args) -> "ok").build();
        try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).eventLog(log).interceptor(recording)
                .tools(ToolRegistry.of(probe)).planner(planner).replicas(3).build()) {
            SystemResponse response = orchestrator.execute(mode.request());
            assertThat(response.error()).as("%s", response.error()).isEmpty();
        }

        List<Invocation<?>> inferences = intercepted.stream()
                .filter(invocation -> invocation.kind() == InvocationKind.INFERENCE).toList();
        List<Event> starts = log.events(event -> event.action().equals("inference_start"));
        List<Event> ends = log.events(event -> event.action().equals("inference_end"));
        assertThat(inferences).as("every engine call goes through the interceptor").hasSize(engine.callCount());
        assertThat(starts).as("one inference_start per engine call").hasSize(engine.callCount());
        assertThat(ends).as("one inference_end per engine call").hasSize(engine.callCount());
        for (Event start : starts) {
            assertThat(start.data()).containsKeys(START_FIELDS.toArray(String[]::new));
            assertThat(start.requestId()).isEqualTo("r");
        }
        for (Event end : ends) {
            assertThat(end.data()).containsKeys(END_FIELDS.toArray(String[]::new));
            assertThat(end.data().get("finish_reason")).isIn("stop", "tool_calls");
        }
        for (Request request : engine.requests()) {
            assertThat(request.settings().temperature()).as("the request's hints reach every inference")
                    .hasValue(0.4);
            assertThat(request.settings().maxTokens()).isGreaterThanOrEqualTo(77);
        }
        if (mode.request().hasSession()) {
            assertThat(starts).allSatisfy(start -> assertThat(start.correlation().sessionId()).isEqualTo("s"));
        }
        if (mode.request().mode() == Mode.PLAN) {
            assertThat(starts.get(1).data()).as("the plan step's inference carries the step's name")
                    .containsEntry("step_name", "answer");
        }
    }
}
