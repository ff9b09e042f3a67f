package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.Candidate;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.agent.TurnOptions;
import dev.pagantic.orchestrate.loop.Outcome;
import dev.pagantic.orchestrate.vote.RedundantLoop;
import dev.pagantic.orchestrate.vote.RedundantResult;
import dev.pagantic.orchestrate.vote.VotingStrategy;
import dev.pagantic.tool.ToolRegistry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@link Mode#REDUNDANT}: a {@link RedundantLoop} whose replicas are the structured mode's calls. The response carries
 * the winner as content (and parsed as structured output), the vote's confidence (source {@code voting}), the usage
 * summed over every replica and their tool calls.
 *
 * <p>Every replica runs the tool phase again, so a tool that is not idempotent would run once per replica: replicas
 * are offered the idempotent tools only (a call of another one is {@code TOOL_NOT_FOUND}), and a whitelist that names a
 * non-idempotent tool is refused with {@code CONFIG_INVALID} rather than silently narrowed.
 */
final class RedundantMode implements ModeRunner {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final StructuredMode structured;
    private final Optional<ToolRegistry> tools;
    private final VotingStrategy voting;
    private final int replicas;
    private final @Nullable Executor replicaExecutor;

    RedundantMode(StructuredMode structured, Optional<ToolRegistry> tools, VotingStrategy voting, int replicas,
                  @Nullable Executor replicaExecutor) {
        this.structured = structured;
        this.tools = tools;
        this.voting = voting;
        this.replicas = replicas;
        this.replicaExecutor = replicaExecutor;
    }

    @Override
    public SystemResponse run(RequestCall call) {
        SystemRequest req = call.request();
        RedundantLoop.Builder loop = RedundantLoop.builder()
                .loopSettings(structured.settingsFor(req))
                .schema(req.output().schema().orElseThrow())
                .grammar(call.grammar().orElse(null))
                .replica(replica -> structured.asReplica(replica, req))
                .n(replicas)
                .voting(voting)
                .executor(replicaExecutor);
        Outcome<RedundantResult> outcome = loop.build().run(call.ctx(), ChatMode.lastUserMessage(req),
                req.hints().settings(), replicaTools(req, call.options()));
        if (outcome.failure().isPresent()) {
            return call.failed(outcome.failure().get(), outcome.usage(), outcome.toolExecutions());
        }
        RedundantResult result = outcome.orElseThrow();
        call.execution().candidates(result.candidates().stream()
                .map(candidate -> Candidate.of(candidate, "replica", candidate.equals(result.content()) ? 1 : 0))
                .toList());
        SystemResponse.Builder response = call.response()
                .content(result.content())
                .confidence(result.confidence(), ConfidenceSource.VOTING)
                .tokenUsage(outcome.usage());
        parse(result.content()).ifPresent(response::structuredOutput);
        outcome.toolExecutions().forEach(e -> response.toolCallMade(ToolCallRecord.from(e)));
        return response.build();
    }

    /** The replicas' hooks: the tool whitelist narrowed to the idempotent tools (see the class comment). */
    private TurnOptions replicaTools(SystemRequest req, TurnOptions options) {
        if (tools.isEmpty()) {
            return options;
        }
        ToolRegistry registry = tools.get();
        List<String> allowed = registry.names().stream().filter(req::allowsTool).toList();
        List<String> repeatable = allowed.stream()
                .filter(name -> registry.lookup(name).map(tool -> tool.safety().idempotent()).orElse(false)).toList();
        if (repeatable.size() == allowed.size()) {
            return options;
        }
        if (!req.tools().isEmpty()) {
            List<String> unsafe = allowed.stream().filter(name -> !repeatable.contains(name)).toList();
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "redundant mode runs the tools once per "
                            + "replica, so it cannot offer tools that are not idempotent: " + String.join(", ", unsafe))
                    .detail("tools", String.join(",", unsafe)).build();
        }
        return options.toBuilder().allowedTools(repeatable).build();
    }

    private static Optional<Object> parse(String json) {
        try {
            return JsonTrees.fromJsonNode(JSON.readTree(json));
        } catch (JacksonException notJson) {
            return Optional.empty();
        }
    }
}
