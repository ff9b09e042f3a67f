package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolCall;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Run in a child JVM by {@link NativeSafetyTest}: sends each named scenario's bad input through the engine's public
 * API and prints, per scenario, {@code BEGIN name}, then {@code OUTCOME name SURVIVED <finish>} (the engine answered),
 * {@code OUTCOME name REFUSED <code>} (a {@link PaganticException}) or {@code OUTCOME name THROWN <class>} (anything
 * else, a bug), then {@code USABLE name true|false}: whether a greedy request afterwards still answers exactly as it
 * did before the first scenario. A scenario that aborts the JVM leaves a {@code BEGIN} without its {@code OUTCOME}.
 */
public final class NativeSafetyProbe {

    /** A reply of at least 200 characters: long enough to be cancelled or closed in the middle of. */
    private static final String LONG_REPLY = "root ::= [a-z ]{200,300}";
    private static final String LONE_HIGH = "\uD800";
    private static final String LONE_LOW = "\uDC00";

    private final PrintStream out;
    private final LlamaCppEngine engine;

    private NativeSafetyProbe(PrintStream out, LlamaCppEngine engine) {
        this.out = out;
        this.engine = engine;
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true,
                StandardCharsets.UTF_8);
        NativeSafetyProbe probe = new NativeSafetyProbe(out, engine(1));
        String baseline = probe.normalAnswer();
        for (String scenario : args) {
            out.println("BEGIN " + scenario);
            out.println("OUTCOME " + scenario + " " + probe.outcome(scenario));
            boolean usable;
            try {
                usable = baseline.equals(probe.normalAnswer());
            } catch (RuntimeException failure) {
                usable = false;
            }
            out.println("USABLE " + scenario + " " + usable);
        }
        System.exit(0); // native threads would keep the JVM alive
    }

    private String normalAnswer() {
        // without the prompt cache: a prefix reused from whatever the slot last held can tip a greedy choice
        return engine.infer(Request.builder().addMessage(Message.user("Once upon a time")).temperature(0).seed(5)
                .maxTokens(8).option("cache_prompt", false).build()).content();
    }

    private String outcome(String scenario) {
        try {
            return "SURVIVED " + run(scenario);
        } catch (PaganticException refused) {
            return "REFUSED " + refused.code() + " " + oneLine(refused.getMessage());
        } catch (Throwable other) {
            return "THROWN " + other.getClass().getName() + " " + oneLine(String.valueOf(other.getMessage()));
        }
    }

    private String run(String scenario) throws Exception {
        return switch (scenario) {
            // ---- content ----
            case "empty-user-message" -> answer(request(""));
            case "empty-system-and-user-messages" -> answer(Request.builder().addMessage(Message.system(""))
                    .addMessage(Message.user("")).temperature(0).maxTokens(4));
            case "prompt-of-a-mebibyte" -> answer(request("Once upon a time. ".repeat(58_255)));
            case "huge-tool-result" -> answer(withToolExchange(request("Weather?"), Map.of("city", "Paris"),
                    "sunny ".repeat(20_000)));
            case "lone-surrogates-everywhere" -> answer(withToolExchange(
                    Request.builder().addMessage(Message.system("sys " + LONE_LOW))
                            .addMessage(Message.user("a" + LONE_HIGH + "b" + LONE_LOW + LONE_HIGH))
                            .addTool(ToolDefinition.of("get_weather", "d" + LONE_HIGH,
                                    Schema.object().required("c" + LONE_LOW, Schema.string()).build()))
                            .option("tool_choice", "none").temperature(0).maxTokens(4),
                    Map.of("k" + LONE_HIGH, List.of("v" + LONE_LOW, LONE_HIGH + LONE_HIGH)), "r" + LONE_LOW));
            case "nul-in-tool-arguments" -> answer(withToolExchange(request("Weather?"), Map.of("city", "a\0b",
                    "k\0", "v"), "sunny"));
            case "nul-in-tool-result" -> answer(withToolExchange(request("Weather?"), Map.of("city", "Paris"),
                    "a\0b"));
            case "nul-in-tool-definition" -> answer(request("Weather?").addTool(ToolDefinition.of("get_weather",
                    "d\0", Schema.object().required("city", Schema.string().withMaxLength(8)).build()))
                    .maxTokens(400)); // room for a whole call, should the model call the tool
            case "nul-in-template-switch" -> answer(request("Hi").option("enable_thinking", "a\0b"));
            case "odd-stop-strings" -> answer(request("Once upon a time").addStop(LONE_HIGH).addStop("a\0b")
                    .addStop("\uD83D\uDE00").addStop("x".repeat(100_000)));
            case "random-bytes-out-of-a-hot-sampler" -> {
                StringBuilder finishes = new StringBuilder();
                for (long seed = 1; seed <= 3; seed++) { // temperature 5: byte tokens, split UTF-8 sequences
                    finishes.append(engine.infer(request("Once").temperature(5).seed(seed).maxTokens(48).build())
                            .finishReason()).append(' ');
                }
                yield finishes.toString().trim();
            }
            // ---- grammars (all parsed by the inference layer first: these are the ones it accepts) ----
            case "grammar-with-a-nul-character" -> answer(request("Hi").grammar("root ::= \"a\0b\""));
            case "grammar-literal-with-an-escaped-nul" -> answer(request("Hi").grammar("root ::= \"a\\x00b\""));
            case "grammar-class-of-nul" -> answer(request("Hi").grammar("root ::= \"a\" [\\u0000] \"b\""));
            case "grammar-with-a-surrogate" -> answer(request("Hi").grammar("root ::= \"\\uD800\" | \"" + LONE_LOW
                    + "\""));
            case "grammar-beyond-the-basic-plane" -> {
                // room for the byte tokens of two 4-byte characters (Generation counts only non-empty pieces)
                Result result = engine.infer(request("Hi").grammar("root ::= \"\uD83D\uDE00\" [\\U0001F600-\\U0001F64F]")
                        .maxTokens(16).build());
                yield result.finishReason() + " " + result.content().codePointCount(0, result.content().length());
            }
            case "grammar-of-the-empty-string" -> answer(request("Hi").grammar("root ::= \"\"").maxTokens(0));
            // ---- limits (the out-of-range ones are refused when the request is built: NativeSafetyTest) ----
            case "max-tokens-zero-means-the-rest-of-the-context" -> answer(request("Hi").grammar("root ::= [a-z]{1,5}")
                    .maxTokens(0));
            case "temperature-beyond-the-float-range" -> answer(request("Hi").temperature(1e300));
            case "temperature-that-rounds-to-zero" -> answer(request("Hi").temperature(Double.MIN_VALUE));
            case "top-p-zero" -> answer(request("Hi").temperature(1).topP(0));
            case "sampling-option-beyond-the-float-range" -> answer(request("Hi").option("presence_penalty", 1e300));
            case "repeat-last-n-below-minus-one" -> answer(request("Hi").option("repeat_last_n", -5));
            case "top-k-beyond-the-int-range" -> answer(request("Hi").option("top_k", 1L << 40));
            case "odd-but-valid-sampling" -> answer(request("Hi").temperature(1).seed(Long.MIN_VALUE)
                    .option("top_k", -5).option("min_p", 7).option("repeat_penalty", 0)
                    .option("repeat_last_n", Integer.MAX_VALUE).option("frequency_penalty", -3e38));
            // ---- concurrency ----
            case "close-during-generation" -> closeDuringGeneration();
            case "cancel-storm" -> cancelStorm();
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        };
    }

    private String answer(Request.Builder request) {
        Result result = engine.infer(request.build());
        return result.finishReason().name();
    }

    private static Request.Builder request(String text) {
        return Request.builder().addMessage(Message.user(text)).temperature(0).seed(3).maxTokens(4);
    }

    private static Request.Builder withToolExchange(Request.Builder request, Map<String, Object> arguments,
                                                    String result) {
        return request.addMessage(Message.assistant("", List.of(ToolCall.of("call_1", "get_weather", arguments))))
                .addMessage(Message.toolResult("call_1", "get_weather", result));
    }

    /**
     * Three rounds: a private engine (its own runtime, so closing it closes the native model) serves three streaming
     * generators on its one slot (one generating, two waiting) and two token counters; it is closed in the middle.
     * Every thread must end, with an answer or {@code INFERENCE_ENGINE_CLOSED}, and the closed engine must refuse
     * later calls the same way.
     */
    private String closeDuringGeneration() throws Exception {
        Map<String, Integer> outcomes = new ConcurrentHashMap<>();
        for (int round = 0; round < 3; round++) {
            LlamaCppEngine closing = LlamaCppEngine.builder().modelPath(TestModels.model(TestModels.STORIES))
                    .contextSize(2048).threads(2).build();
            ExecutorService pool = Executors.newFixedThreadPool(5);
            CountDownLatch generating = new CountDownLatch(1);
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 5; t++) {
                boolean counter = t >= 3;
                workers.add(pool.submit(() -> {
                    while (true) {
                        try {
                            if (counter) {
                                closing.tokenCounter().count("Once upon a time there was a cat. ".repeat(50));
                            } else {
                                closing.infer(CallContext.background(), request("Once").grammar(LONG_REPLY)
                                        .maxTokens(200).build(), StreamHandler.onContent(d -> generating.countDown()));
                            }
                            outcomes.merge(counter ? "counted" : "answered", 1, Integer::sum);
                        } catch (PaganticException e) {
                            outcomes.merge(e.code().name(), 1, Integer::sum);
                            if (e.code() != ErrorCode.INFERENCE_ENGINE_CLOSED) {
                                throw e;
                            }
                            return null;
                        }
                    }
                }));
            }
            if (!generating.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("no token was generated");
            }
            Thread.sleep(20L + 40L * round);
            closing.close();
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS); // a hang fails here; an unexpected error too
            }
            pool.shutdown();
            try {
                closing.infer(request("Hi").build());
                throw new AssertionError("a closed engine answered");
            } catch (PaganticException closed) {
                if (closed.code() != ErrorCode.INFERENCE_ENGINE_CLOSED) {
                    throw closed;
                }
            }
            closing.close(); // idempotent
        }
        return "all ended " + new java.util.TreeMap<>(outcomes);
    }

    /**
     * For about three seconds, six threads start streaming requests on a two-slot engine while three threads cancel,
     * again and again, the half of them marked for cancelling; a fifth of the requests carry a deadline of a few
     * milliseconds and a tenth are cancelled before they start. A request marked for cancelling must end answered or
     * with {@code CANCELLED_SIGNAL}, one with a deadline answered or with {@code CANCELLED_TIMEOUT}, and any other
     * answered: cancellation never leaks onto another request. Every request must end within a minute, some of each
     * kind must occur, and afterwards the engine must answer a greedy request exactly as it did before the storm.
     */
    private String cancelStorm() throws Exception {
        LlamaCppEngine stormy = engine(2);
        Request probe = request("Once upon a time").maxTokens(8).option("cache_prompt", false).build();
        String before = stormy.infer(probe).content();
        Queue<Cancellation> doomed = new ConcurrentLinkedQueue<>();
        Map<String, Integer> outcomes = new ConcurrentHashMap<>();
        AtomicBoolean storming = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(9);
        List<Future<?>> threads = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            Random random = new Random(t);
            threads.add(pool.submit(() -> {
                while (storming.get()) {
                    Cancellation cancellation = new Cancellation();
                    CallContext.Builder context = CallContext.builder().cancellation(cancellation);
                    int kind = random.nextInt(10);
                    String expected;
                    if (kind == 0) {
                        cancellation.cancel("before the start");
                        expected = "CANCELLED_SIGNAL";
                    } else if (kind <= 2) {
                        context.timeout(Duration.ofMillis(1 + random.nextInt(20)));
                        expected = "CANCELLED_TIMEOUT";
                    } else if (kind <= 6) {
                        doomed.add(cancellation);
                        expected = "CANCELLED_SIGNAL";
                    } else {
                        expected = "answered";
                    }
                    String outcome;
                    try {
                        stormy.infer(context.build(), request("Once").grammar(LONG_REPLY).maxTokens(5
                                + random.nextInt(20)).build(), StreamHandler.onContent(d -> { }));
                        outcome = "answered";
                    } catch (PaganticException e) {
                        outcome = e.code().name();
                    } finally {
                        doomed.remove(cancellation);
                    }
                    if (!outcome.equals(expected) && !outcome.equals("answered")) {
                        throw new AssertionError("a request expected to end " + expected + " ended " + outcome);
                    }
                    outcomes.merge(outcome, 1, Integer::sum);
                }
                return null;
            }));
        }
        for (int t = 0; t < 3; t++) {
            Random random = new Random(100 + t);
            threads.add(pool.submit(() -> {
                while (storming.get()) {
                    doomed.forEach(cancellation -> cancellation.cancel("storm"));
                    Thread.sleep(random.nextInt(3));
                }
                return null;
            }));
        }
        Thread.sleep(3_000);
        storming.set(false);
        for (Future<?> thread : threads) {
            thread.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        for (String kind : List.of("answered", "CANCELLED_SIGNAL", "CANCELLED_TIMEOUT")) {
            if (!outcomes.containsKey(kind)) {
                throw new AssertionError("the storm produced no " + kind + ": " + outcomes);
            }
        }
        String after = stormy.infer(probe).content();
        if (!after.equals(before)) {
            throw new AssertionError("after the storm the engine answered '" + after + "' instead of '" + before + "'");
        }
        return "all ended " + new java.util.TreeMap<>(outcomes);
    }

    private static LlamaCppEngine engine(int parallel) {
        return LlamaCppEngine.builder().runtime(TestModels.runtime()).modelPath(TestModels.model(TestModels.STORIES))
                .contextSize(2048).parallel(parallel).threads(2).build();
    }

    private static String oneLine(String text) {
        String flat = text.replaceAll("\\s+", " ");
        return flat.length() > 200 ? flat.substring(0, 200) + "..." : flat;
    }
}
