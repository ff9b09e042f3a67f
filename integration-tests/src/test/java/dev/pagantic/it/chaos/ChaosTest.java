package dev.pagantic.it.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.FailureCategory;
import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.memory.InMemoryConversationStore;
import dev.pagantic.observe.Event;
import dev.pagantic.observe.EventLog;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.StaticPlanner;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.facade.ToolCallRecord;
import dev.pagantic.orchestrate.loop.ToolEvents;
import dev.pagantic.testkit.ChaosEngine;
import dev.pagantic.testkit.ChaosTools;
import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolExecutor;
import dev.pagantic.tool.ToolRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Drives every pattern of the facade (chat with server tools, chat with caller-executed tools, structured, plan,
 * redundant) through a {@link ChaosEngine} and {@link ChaosTools}, and checks every single request against what its
 * injected faults call for. The number of requests is {@code -Dpagantic.chaos.requests} (default 10,000), the seed
 * {@code -Dpagantic.chaos.seed}; the long run is
 * {@code mvn -B -o test -pl integration-tests -Dtest=ChaosTest -Dpagantic.chaos.requests=100000}. A Markdown summary
 * is written to {@code target/chaos-report.md} and printed.
 */
class ChaosTest {

    private static final int REQUESTS = Integer.getInteger("pagantic.chaos.requests", 10_000);
    private static final long SEED = Long.getLong("pagantic.chaos.seed", 20_240_601L);
    private static final int WORKERS = 8;
    private static final int BATCHES = 5;
    /** The request deadline; chaos latency is drawn around it so that some requests run past it. */
    private static final Duration TIMEOUT = Duration.ofMillis(500);
    /** Generous: a request may end this much after its deadline (scheduling, the executor's poll, a busy box). */
    private static final Duration HANG_MARGIN = Duration.ofSeconds(3);
    private static final Duration TOOL_TIMEOUT = Duration.ofMillis(40);
    private static final Duration TOOL_HANG = Duration.ofMillis(400);
    private static final int MAX_PARALLELISM = 4;
    private static final int MAX_ABANDONED = 4;
    private static final String SYSTEM_PROMPT = "You are the chaos test's model.";
    private static final ToolDefinition CALLER_TOOL = ToolDefinition.of("client_confirm",
            "Asks the client to confirm.", Schema.object().required("key", Schema.string()).build());
    private static final Schema ANSWER = Schema.object().required("answer", Schema.string())
            .required("tools", Schema.integer()).build();
    private static final String PLAN = """
            {"rationale": "ask the model, then run what it called",
             "steps": [{"name": "ask", "type": "infer"}, {"name": "act", "type": "tool"}]}""";
    private static final Set<ErrorCode> CONSTRAINT_CODES = EnumSet.of(ErrorCode.CONSTRAINT_JSON_INVALID,
            ErrorCode.CONSTRAINT_SCHEMA_INVALID, ErrorCode.CONSTRAINT_GRAMMAR_REJECTED,
            ErrorCode.CONSTRAINT_ENUM_UNRECOGNIZED);

    /** What was injected into one request, by the engine or a tool. */
    private record Injected(ChaosEngine.Injection engine, ChaosTools.Injection tool) {
    }

    private final Map<String, Queue<Injected>> injected = new ConcurrentHashMap<>();
    private final Queue<String> problems = new ConcurrentLinkedQueue<>();
    private final Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> events = new ConcurrentHashMap<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicLong toolResultsChecked = new AtomicLong();
    private final Map<String, LongAdder> toolOutcomes = new ConcurrentHashMap<>();
    private final AtomicLong messagesChecked = new AtomicLong();
    private final AtomicLong maxOverrunMillis = new AtomicLong();
    private final TickingClock clock = new TickingClock();
    private final InMemoryConversationStore store = new InMemoryConversationStore();

    @Test
    void everyChaosRequestEndsAsItsFaultsCallForWithinItsDeadlineWithBoundedThreadsAndNothingLost() throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ChaosEngine engine = ChaosEngine.builder().delegate(new RuleModel()).seed(SEED)
                .latency(0.01, Duration.ofMillis(300), Duration.ofMillis(700))
                .failure(0.02).malformed(0.04).unknownTool(0.02).brokenArguments(0.02).truncation(0.02)
                .midStreamFailure(0.02)
                .listener(i -> injected.computeIfAbsent(i.requestId(), k -> new ConcurrentLinkedQueue<>())
                        .add(new Injected(i, null)))
                .build();
        ChaosTools chaosTools = ChaosTools.builder().seed(SEED + 1).failure(0.03).hang(0.02, TOOL_HANG)
                .slow(0.05, Duration.ofMillis(10))
                .listener(i -> injected.computeIfAbsent(i.requestId(), k -> new ConcurrentLinkedQueue<>())
                        .add(new Injected(null, i)))
                .build();
        EventLog log = new EventLog() {
            @Override
            public void record(Event event) {
                events.computeIfAbsent(event.action(), k -> new LongAdder()).increment();
            }

            @Override
            public List<Event> events() {
                return List.of(); // counted, not kept: the long run would not fit in memory
            }
        };
        ToolExecutor executor = ToolExecutor.builder().defaultTimeout(TOOL_TIMEOUT).maxParallelism(MAX_PARALLELISM)
                .maxAbandoned(MAX_ABANDONED).interruptGrace(Duration.ofMillis(10))
                .observer(ToolEvents.observer(log)).threadNamePrefix("chaos-tool").build();
        ToolRegistry tools = ToolRegistry.of(tool("lookup", "value-of-", chaosTools),
                tool("stamp", "stamped-", chaosTools));
        int baseline = threads.getThreadCount();
        AtomicInteger maxThreads = new AtomicInteger(baseline);
        AtomicInteger maxAbandoned = new AtomicInteger();
        Thread monitor = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                maxThreads.accumulateAndGet(threads.getThreadCount(), Math::max);
                maxAbandoned.accumulateAndGet(executor.abandonedCount(), Math::max);
                try {
                    Thread.sleep(2);
                } catch (InterruptedException stop) {
                    return;
                }
            }
        }, "chaos-thread-monitor");
        monitor.setDaemon(true);
        long started = System.nanoTime();
        try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).tools(tools).toolExecutor(executor)
                .systemPrompt(SYSTEM_PROMPT).planner(StaticPlanner.fromJson(PLAN)).eventLog(log)
                .conversationStore(store).maxSessions(16).clock(clock).build()) {
            monitor.start();
            ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
            try {
                AtomicInteger sessions = new AtomicInteger();
                int perBatch = (REQUESTS + BATCHES - 1) / BATCHES;
                for (int batch = 1; batch <= BATCHES; batch++) {
                    int target = Math.min(REQUESTS, batch * perBatch);
                    List<Future<?>> running = new ArrayList<>();
                    for (int w = 0; w < WORKERS; w++) {
                        running.add(workers.submit(() -> {
                            while (requests.get() < target) {
                                session(orchestrator, sessions.incrementAndGet());
                            }
                            return null;
                        }));
                    }
                    for (Future<?> worker : running) {
                        worker.get(10, TimeUnit.MINUTES);
                    }
                    // Every worker is idle: jump past the session TTL, so that the next batch restores every
                    // session from the store (eviction must lose nothing).
                    clock.advance(Orchestrator.DEFAULT_SESSION_TTL.plusMinutes(1));
                }
            } finally {
                workers.shutdownNow();
            }
        } finally {
            monitor.interrupt();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        // the abandoned tools end on their own; then every tool_start has its tool_end
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (executor.abandonedCount() > 0 && System.nanoTime() < waitUntil) {
            Thread.sleep(10);
        }
        executor.close();

        String report = report(engine, executor, took, baseline, maxThreads.get(), maxAbandoned.get());
        writeReport(report);
        assertThat(problems).as("requests that did not end as their faults call for").isEmpty();
        assertThat(requests.get()).isGreaterThanOrEqualTo(REQUESTS);
        // The cap is checked when a call is admitted: calls admitted together just under it can all be abandoned,
        // those beyond it keeping their working slot (ToolTimeoutTest); the pool's size caps the threads, below.
        assertThat(maxAbandoned.get()).as("abandoned tool threads").isLessThanOrEqualTo(MAX_ABANDONED
                + MAX_PARALLELISM - 1);
        assertThat(maxThreads.get() - baseline).as("threads above the baseline")
                .isLessThanOrEqualTo(WORKERS + MAX_PARALLELISM + MAX_ABANDONED + 4);
        assertThat(executor.abandonedTotal()).as("hanging tools were abandoned, not waited for").isPositive();
        assertThat(toolOutcomes).as("tool results by code").containsKeys("ok", "TOOL_TIMEOUT",
                "TOOL_EXECUTION_FAILED", "TOOL_NOT_FOUND", "TOOL_INVALID_ARGUMENTS");
        assertThat(count("inference_end")).isEqualTo(count("inference_start")).isPositive();
        assertThat(count("tool_end")).isEqualTo(count("tool_start")).isPositive();
        assertThat(outcomes.keySet()).contains("COMPLETE", "CANCELLED_TIMEOUT", "CANCELLED_SIGNAL");
    }

    // ------------------------------------------------------------------------------------------------------ driving

    /** One chat session of a few turns, each followed by one stateless request of another mode. */
    private void session(Orchestrator orchestrator, int index) {
        Random random = new Random(SEED * 31 + index);
        String sessionId = "s" + index;
        int turns = 2 + random.nextInt(4);
        List<Message> pending = List.of(); // caller-tool results the next turn must carry
        for (int turn = 1; turn <= turns && requests.get() < REQUESTS * 2; turn++) {
            String tag = sessionId + "t" + turn;
            SystemRequest.Builder chat = SystemRequest.builder().requestId(tag).sessionId(sessionId)
                    .mode(Mode.CHAT).hints(hints());
            boolean callerTurn = !pending.isEmpty() || random.nextInt(5) == 0;
            if (!pending.isEmpty()) {
                chat.messages(pending).callerTool(CALLER_TOOL);
            } else if (callerTurn) {
                chat.user("tag=" + tag + " call=" + CALLER_TOOL.name()).callerTool(CALLER_TOOL);
            } else {
                String[] calls = {"", " call=lookup", " call=lookup,stamp", " call=stamp"};
                chat.user("tag=" + tag + calls[random.nextInt(calls.length)]);
            }
            SystemResponse response = chatTurn(orchestrator, chat.build(), random, tag);
            pending = response != null && response.hasToolCallsRequested()
                    ? response.toolCallsRequested().stream()
                    .map(call -> Message.toolResult(call.id(), call.name(), "confirmed-" + call.arguments()
                            .get("key")))
                    .toList()
                    : List.of();
            stateless(orchestrator, random, sessionId + "x" + turn);
        }
    }

    private SystemResponse chatTurn(Orchestrator orchestrator, SystemRequest request, Random random, String tag) {
        List<Message> before = store.load(request.sessionId()).messages();
        SystemResponse response = execute(orchestrator, request, random);
        if (response == null) {
            return null;
        }
        List<Message> after = store.load(request.sessionId()).messages();
        checkTranscript(request, response, before, after, tag);
        return response;
    }

    /** A structured, plan or redundant request. */
    private void stateless(Orchestrator orchestrator, Random random, String tag) {
        Mode mode = List.of(Mode.STRUCTURED, Mode.PLAN, Mode.REDUNDANT).get(random.nextInt(3));
        String call = random.nextBoolean() ? " call=lookup" : "";
        SystemRequest.Builder request = SystemRequest.builder().requestId(tag).mode(mode).hints(hints())
                .user("tag=" + tag + (mode == Mode.PLAN ? " call=lookup" : call));
        if (mode != Mode.PLAN) {
            request.output(OutputContract.builder().schema(ANSWER).build());
        }
        SystemResponse response = execute(orchestrator, request.build(), random);
        if (response != null && response.isSuccess()) {
            checkStatelessContent(mode, tag, response);
        }
    }

    private static ExecutionHints hints() {
        return ExecutionHints.builder().timeout(TIMEOUT).build();
    }

    /**
     * Runs one request (streamed for some, cancelled by the caller on its first delta for a few), then checks its
     * outcome against its injected faults and its duration against its deadline. Null when it threw.
     */
    private SystemResponse execute(Orchestrator orchestrator, SystemRequest request, Random random) {
        requests.incrementAndGet();
        boolean stream = random.nextBoolean();
        boolean cancelOnDelta = random.nextInt(50) == 0;
        Cancellation cancellation = cancelOnDelta ? new Cancellation() : null;
        StringBuilder streamed = new StringBuilder();
        StreamHandler handler = !stream && !cancelOnDelta ? StreamHandler.NOOP : StreamHandler.onContent(delta -> {
            streamed.append(delta);
            if (cancellation != null) {
                cancellation.cancel("the chaos test's client went away");
            }
        });
        long started = System.nanoTime();
        SystemResponse response;
        try {
            response = orchestrator.execute(request, handler, cancellation);
        } catch (RuntimeException | Error escaped) {
            problem(request, "execute threw instead of answering: " + escaped);
            return null;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        maxOverrunMillis.accumulateAndGet(took.minus(TIMEOUT).toMillis(), Math::max);
        if (took.compareTo(TIMEOUT.plus(HANG_MARGIN)) > 0) {
            problem(request, "ran " + took.toMillis() + " ms, past its deadline of " + TIMEOUT.toMillis() + " ms");
        }
        String outcome = response.error().map(e -> e.code().name()).orElse("COMPLETE");
        response.toolCallsMade().forEach(call -> toolOutcomes.computeIfAbsent(
                call.errorCode().map(Enum::name).orElse(call.isError() ? "error" : "ok"), k -> new LongAdder())
                .increment());
        outcomes.computeIfAbsent(request.mode().wireName() + " " + outcome, k -> new LongAdder()).increment();
        outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
        List<Injected> faults = new ArrayList<>(injected.getOrDefault(request.requestId(), new ConcurrentLinkedQueue<>()));
        injected.remove(request.requestId());
        if (response.error().isPresent()) {
            ErrorCode code = response.error().get().code();
            Set<ErrorCode> allowed = allowedCodes(request.mode(), faults, cancelOnDelta);
            if (!allowed.contains(code)) {
                problem(request, "ended with " + code + " (" + response.error().get().message() + "), but its faults "
                        + describe(faults) + " allow only " + allowed);
            }
        } else if (request.mode() == Mode.REDUNDANT) {
            checkRedundantSuccess(request, response, faults);
        } else if (request.mode() == Mode.STRUCTURED) {
            checkStructuredSuccess(request, response, faults);
        }
        if (request.mode() == Mode.REDUNDANT && response.error().isPresent()) {
            checkRedundantFailure(request, response, faults);
        }
        if (response.isSuccess() && stream && !cancelOnDelta && request.mode() == Mode.CHAT
                && !streamed.toString().endsWith(response.content())) {
            problem(request, "streamed '" + streamed + "' does not end with the content '" + response.content() + "'");
        }
        return response;
    }

    // ------------------------------------------------------------------------------------------------------ checks

    /** The error codes a request may end with, given what was injected into it. */
    private static Set<ErrorCode> allowedCodes(Mode mode, List<Injected> faults, boolean cancelledByCaller) {
        // a deadline can always pass on a busy machine; the brief allows CANCELLED for any request
        Set<ErrorCode> allowed = EnumSet.of(ErrorCode.CANCELLED_TIMEOUT);
        if (cancelledByCaller) {
            allowed.add(ErrorCode.CANCELLED_SIGNAL);
        }
        if (mode == Mode.PLAN) {
            // another request's hanging tools may have saturated the executor (TOOL_UNAVAILABLE, by design)
            allowed.add(ErrorCode.TOOL_UNAVAILABLE);
        }
        boolean replicaFault = false;
        for (Injected fault : faults) {
            if (fault.engine() != null) {
                switch (fault.engine().fault()) {
                    case FAILURE, MID_STREAM_FAILURE -> {
                        allowed.add(fault.engine().code().orElseThrow());
                        replicaFault = true;
                    }
                    case MALFORMED_JSON, TRUNCATED -> {
                        allowed.addAll(CONSTRAINT_CODES);
                        replicaFault = true;
                    }
                    // the model may keep calling broken tools until the round limit
                    case UNKNOWN_TOOL, BROKEN_ARGUMENTS -> allowed.add(ErrorCode.ORCHESTRATION_ITERATION_LIMIT);
                    case LATENCY -> allowed.add(ErrorCode.CANCELLED_TIMEOUT);
                }
            } else if (mode == Mode.PLAN) {
                // a tool step fails with its tool's error; elsewhere a tool error goes back to the model
                switch (fault.tool().fault()) {
                    case THROW -> allowed.add(ErrorCode.TOOL_EXECUTION_FAILED);
                    case HANG, SLOW -> allowed.add(ErrorCode.TOOL_TIMEOUT);
                }
            }
        }
        if (mode == Mode.REDUNDANT && replicaFault) {
            allowed.add(ErrorCode.ORCHESTRATION_NO_CONSENSUS);
        }
        return allowed;
    }

    /** Replicas are told apart by their seed (base 1): those with no failing fault. */
    private static long cleanReplicas(List<Injected> faults) {
        Set<Long> failed = new java.util.HashSet<>();
        for (Injected fault : faults) {
            if (fault.engine() != null && fault.engine().fault() != ChaosEngine.Fault.LATENCY
                    && fault.engine().fault() != ChaosEngine.Fault.UNKNOWN_TOOL
                    && fault.engine().fault() != ChaosEngine.Fault.BROKEN_ARGUMENTS) {
                failed.add(fault.engine().seed().orElse(-1));
            }
        }
        return 3 - failed.stream().filter(seed -> seed >= 1 && seed <= 3).count();
    }

    /** The failure matrix: single replica failures are recovered, so with two clean replicas the call succeeds. */
    private void checkRedundantFailure(SystemRequest request, SystemResponse response, List<Injected> faults) {
        ErrorCode code = response.error().orElseThrow().code();
        boolean injectedCancellation = faults.stream().anyMatch(f -> f.engine() != null
                && f.engine().code().map(c -> c.category() == FailureCategory.CANCELLATION).orElse(false));
        if (code.category() != FailureCategory.CANCELLATION && !injectedCancellation && cleanReplicas(faults) >= 2) {
            problem(request, "redundant call failed with " + code + " although two replicas had no fault: "
                    + describe(faults));
        }
    }

    private void checkRedundantSuccess(SystemRequest request, SystemResponse response, List<Injected> faults) {
        if (cleanReplicas(faults) >= 2) {
            Object answer = ((Map<?, ?>) response.structuredOutput().orElseThrow()).get("answer");
            if (!request.requestId().equals(answer)) {
                problem(request, "redundant winner " + response.content() + " is not the clean replicas' answer");
            }
        }
    }

    private void checkStatelessContent(Mode mode, String tag, SystemResponse response) {
        if (mode != Mode.PLAN) {
            return;
        }
        for (ToolCallRecord call : response.toolCallsMade()) {
            toolResultsChecked.incrementAndGet();
            if (!call.isError() && !call.result().equals("value-of-" + tag)) {
                problems.add(tag + ": plan tool result " + call.result() + " belongs to another request");
            }
        }
    }

    /** Without a malformed or truncated answer, the structured output is this request's own. */
    private void checkStructuredSuccess(SystemRequest request, SystemResponse response, List<Injected> faults) {
        boolean altered = faults.stream().anyMatch(f -> f.engine() != null
                && (f.engine().fault() == ChaosEngine.Fault.MALFORMED_JSON
                || f.engine().fault() == ChaosEngine.Fault.TRUNCATED));
        if (response.structuredOutput().isEmpty()) {
            // an answer cut off at the token limit is returned as it is, unvalidated, with finish reason LENGTH
            if (!altered || response.finishReason() != dev.pagantic.core.FinishReason.LENGTH) {
                problem(request, "a structured success without structured output, finish " + response.finishReason());
            }
            return;
        }
        Object answer = ((Map<?, ?>) response.structuredOutput().orElseThrow()).get("answer");
        if (!altered && !request.requestId().equals(answer)) {
            problem(request, "structured answer " + answer + " is not this request's");
        }
    }

    /**
     * The conversation store after a chat turn holds exactly what the response said: a failed turn added nothing; a
     * completed one added the request's messages, then tool-call messages each answered by a tool result that is in
     * the response's tool calls made (and no other), then the answer (or the caller-tool calls handed back).
     */
    private void checkTranscript(SystemRequest request, SystemResponse response, List<Message> before,
                                 List<Message> after, String tag) {
        if (after.size() < before.size() || !after.subList(0, before.size()).equals(before)) {
            problem(request, "the stored history lost or changed earlier messages");
            return;
        }
        List<Message> added = new ArrayList<>(after.subList(before.size(), after.size()));
        messagesChecked.addAndGet(after.size());
        if (!response.isSuccess()) {
            if (!added.isEmpty()) {
                problem(request, "a failed turn left " + added.size() + " messages in the store");
            }
            return;
        }
        if (before.isEmpty()) {
            if (added.isEmpty() || !added.get(0).equals(Message.system(SYSTEM_PROMPT))) {
                problem(request, "a new session does not start with the system prompt: " + added);
                return;
            }
            added.remove(0);
        }
        List<Message> sent = request.messages();
        if (added.size() < sent.size() + 1 || !added.subList(0, sent.size()).equals(sent)) {
            problem(request, "the turn's own messages are not first in what it added: " + added);
            return;
        }
        List<Message> produced = added.subList(sent.size(), added.size());
        Message last = produced.get(produced.size() - 1);
        if (response.hasToolCallsRequested()) {
            if (last.role() != Role.ASSISTANT || !last.toolCalls().equals(response.toolCallsRequested())) {
                problem(request, "the handed-back calls are not the stored last message: " + last);
            }
        } else if (last.role() != Role.ASSISTANT || !last.content().equals(response.content())
                || !last.toolCalls().isEmpty()) {
            problem(request, "the stored answer " + last + " is not the response's content " + response.content());
        }
        Map<String, String> storedResults = new HashMap<>();
        Set<String> calledIds = new java.util.HashSet<>();
        for (Message message : produced) {
            if (message.role() == Role.TOOL) {
                storedResults.put(message.toolCallId(), message.content());
            } else if (message != last || !response.hasToolCallsRequested()) {
                message.toolCalls().forEach(call -> calledIds.add(call.id()));
            }
        }
        Map<String, String> reported = response.toolCallsMade().stream()
                .collect(Collectors.toMap(ToolCallRecord::id, ToolCallRecord::result, (a, b) -> a + "|dup|" + b));
        if (!storedResults.equals(reported)) {
            problem(request, "stored tool results " + storedResults + " differ from the tool calls made " + reported);
        }
        if (!storedResults.keySet().equals(calledIds)) {
            problem(request, "tool calls " + calledIds + " and stored results " + storedResults.keySet()
                    + " do not pair up");
        }
        for (ToolCallRecord call : response.toolCallsMade()) {
            toolResultsChecked.incrementAndGet();
            if (!call.isError() && !call.result().endsWith("-" + tag)) {
                problem(request, "tool result " + call.result() + " belongs to another session (expected tag "
                        + tag + ")");
            }
        }
    }

    private void problem(SystemRequest request, String what) {
        if (problems.size() < 200) {
            problems.add(request.mode().wireName() + " " + request.requestId() + ": " + what);
        }
    }

    private static String describe(List<Injected> faults) {
        return faults.stream().map(f -> f.engine() != null
                        ? f.engine().fault() + f.engine().code().map(c -> "(" + c + ")").orElse("")
                        + f.engine().seed().stream().mapToObj(s -> "@seed" + s).findFirst().orElse("")
                        : "tool " + f.tool().fault())
                .toList().toString();
    }

    private long count(String action) {
        LongAdder adder = events.get(action);
        return adder == null ? 0 : adder.sum();
    }

    private static Tool tool(String name, String prefix, ChaosTools chaos) {
        ToolDefinition definition = ToolDefinition.of(name, "Returns a value for the key.",
                Schema.object().required("key", Schema.string()).build());
        ChaosTools.Body body = (ctx, args) -> prefix + args.get("key");
        return Tool.builder(definition).handler(chaos.wrap(body)::execute).build();
    }

    // ------------------------------------------------------------------------------------------------------ report

    private String report(ChaosEngine engine, ToolExecutor executor, Duration took, int baseline, int maxThreads,
                          int maxAbandoned) {
        StringBuilder out = new StringBuilder();
        out.append("## Chaos run\n\n");
        out.append("| figure | value |\n| --- | --- |\n");
        out.append("| requests | ").append(requests.get()).append(" |\n");
        out.append("| seed | ").append(SEED).append(" |\n");
        out.append("| duration | ").append(took.toMillis() / 1000.0).append(" s |\n");
        out.append("| engine calls | ").append(engine.callCount()).append(" |\n");
        for (ChaosEngine.Fault fault : ChaosEngine.Fault.values()) {
            out.append("| injected ").append(fault).append(" | ").append(engine.count(fault)).append(" |\n");
        }
        out.append("| tool calls (tool_start) | ").append(count("tool_start")).append(" |\n");
        out.append("| abandoned tool threads (total / max at once / cap) | ").append(executor.abandonedTotal())
                .append(" / ").append(maxAbandoned).append(" / ").append(MAX_ABANDONED).append(" |\n");
        out.append("| threads (baseline / max / allowed max) | ").append(baseline).append(" / ").append(maxThreads)
                .append(" / ").append(baseline + WORKERS + MAX_PARALLELISM + MAX_ABANDONED + 4).append(" |\n");
        out.append("| longest run past the ").append(TIMEOUT.toMillis()).append(" ms deadline | ")
                .append(Math.max(0, maxOverrunMillis.get())).append(" ms |\n");
        out.append("| stored messages checked / tool results checked | ").append(messagesChecked.get())
                .append(" / ").append(toolResultsChecked.get()).append(" |\n");
        out.append("| inference_start / inference_end | ").append(count("inference_start")).append(" / ")
                .append(count("inference_end")).append(" |\n");
        out.append("| tool_start / tool_end | ").append(count("tool_start")).append(" / ")
                .append(count("tool_end")).append(" |\n");
        out.append("| problems | ").append(problems.size()).append(" |\n\n");
        out.append("| outcome | requests |\n| --- | --- |\n");
        new TreeMap<>(outcomes).forEach((key, value) -> out.append("| ").append(key).append(" | ")
                .append(value.sum()).append(" |\n"));
        out.append("\n| tool result (in responses) | calls |\n| --- | --- |\n");
        new TreeMap<>(toolOutcomes).forEach((key, value) -> out.append("| ").append(key).append(" | ")
                .append(value.sum()).append(" |\n"));
        problems.stream().limit(20).forEach(p -> out.append("\n- ").append(p));
        return out.toString();
    }

    private static void writeReport(String report) throws IOException {
        Path target = Path.of("target");
        if (Files.isDirectory(target)) {
            Files.writeString(target.resolve("chaos-report.md"), report);
        }
    }
}
