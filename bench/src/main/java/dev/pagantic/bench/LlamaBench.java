package dev.pagantic.bench;

import de.kherud.llama.InferenceParameters;
import de.kherud.llama.LlamaModel;
import de.kherud.llama.LlamaOutput;
import de.kherud.llama.ModelParameters;
import dev.pagantic.core.CallContext;
import dev.pagantic.core.Message;
import dev.pagantic.core.Schema;
import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.TestModels;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A wall-clock harness for local inference on stories260K.gguf (JMH adds nothing to runs this long): generation
 * tokens/s through {@link LlamaCppEngine} against the raw binding on the same prompt, grammar-constrained against
 * unconstrained generation, and the time to the first token (the prompt time) at turn 1 and turn 10 of a growing
 * chat. Run it with {@code mvn -pl bench -Pbench exec:exec -Dbench.main=dev.pagantic.bench.LlamaBench
 * -Dbench.args=RUNS}.
 */
public final class LlamaBench {

    private static final String PROMPT = "Once upon a time, there was a little girl named Lily.";
    private static final int N_PREDICT = 128;
    private static final int THREADS = 2;
    private static final int CONTEXT = 2048;
    private static final long SEED = 42;

    private final PrintStream out;
    private final int runs;

    private LlamaBench(PrintStream out, int runs) {
        this.out = out;
        this.runs = runs;
    }

    /** Runs every measurement; the optional argument is the number of measured runs (default 10). */
    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int status = 0;
        try {
            new LlamaBench(System.out, runs).run(TestModels.path(TestModels.STORIES));
        } catch (RuntimeException e) {
            e.printStackTrace();
            status = 1;
        }
        System.exit(status); // a loaded llama.cpp model keeps the JVM alive
    }

    private void run(Path model) {
        out.printf(Locale.ROOT, "model %s, %d threads, nPredict %d, temperature 0, %d measured runs after 3 warm-up%n",
                model, THREADS, N_PREDICT, runs);
        try (LlamaCppEngine engine = LlamaCppEngine.builder().modelPath(model).contextSize(CONTEXT).threads(THREADS)
                .seed(SEED).build();
             LlamaModel raw = new LlamaModel(new ModelParameters().setModel(model.toString()).setCtxSize(CONTEXT)
                     .setThreads(THREADS).setThreadsBatch(THREADS).setBatchSize(LlamaCppEngine.DEFAULT_BATCH_SIZE)
                     .setParallel(1).setSeed((int) SEED).enableJinja().disableLog())) {
            compareWithRaw(engine, raw);
            compareGrammar(engine);
            growingChat(engine);
            growingChatRaw(raw, false);
            growingChatRaw(raw, true);
            redundantVersusSingle(engine);
        }
    }

    /** Generation tokens/s of the engine and of the binding on the same chat-templated prompt. */
    private void compareWithRaw(LlamaCppEngine engine, LlamaModel raw) {
        Request request = Request.builder().messages(List.of(Message.user(PROMPT))).maxTokens(N_PREDICT)
                .temperature(0).seed(SEED).build();
        String templated = raw.applyTemplate("{\"messages\":[{\"role\":\"user\",\"content\":\"" + PROMPT
                + "\"}],\"add_generation_prompt\":true}");
        double[] engineRates = new double[runs];
        double[] rawRates = new double[runs];
        for (int i = -3; i < runs; i++) { // interleaved so that both see the same machine load
            long start = System.nanoTime();
            int rawTokens = 0;
            InferenceParameters parameters = new InferenceParameters(templated).setNPredict(N_PREDICT)
                    .setTemperature(0).setSeed((int) SEED);
            for (LlamaOutput piece : raw.generate(parameters)) {
                if (!piece.text.isEmpty()) {
                    rawTokens++;
                }
            }
            double rawRate = rawTokens / seconds(start);
            start = System.nanoTime();
            Result result = engine.infer(CallContext.background(), request);
            double engineRate = result.usage().outputTokens() / seconds(start);
            if (i >= 0) {
                rawRates[i] = rawRate;
                engineRates[i] = engineRate;
            }
            if (i == 0) {
                out.printf(Locale.ROOT, "tokens per run: raw %d, engine %d%n", rawTokens,
                        result.usage().outputTokens());
            }
        }
        report("raw binding tokens/s", rawRates);
        report("LlamaCppEngine tokens/s", engineRates);
        out.printf(Locale.ROOT, "engine/raw (medians): %.3f%n", median(engineRates) / median(rawRates));
    }

    /** Tokens/s with and without a schema-derived grammar. */
    private void compareGrammar(LlamaCppEngine engine) {
        Schema schema = Schema.object().required("name", Schema.string()).required("age", Schema.integer()).build();
        Request free = Request.builder().messages(List.of(Message.user(PROMPT))).maxTokens(N_PREDICT)
                .temperature(0).seed(SEED).build();
        Request constrained = free.toBuilder().schema(schema).build();
        double[] freeRates = new double[runs];
        double[] constrainedRates = new double[runs];
        int[] constrainedTokens = new int[runs];
        for (int i = -3; i < runs; i++) {
            long start = System.nanoTime();
            Result a = engine.infer(CallContext.background(), free);
            double freeRate = a.usage().outputTokens() / seconds(start);
            start = System.nanoTime();
            Result b = engine.infer(CallContext.background(), constrained);
            double constrainedRate = b.usage().outputTokens() / seconds(start);
            if (i >= 0) {
                freeRates[i] = freeRate;
                constrainedRates[i] = constrainedRate;
                constrainedTokens[i] = b.usage().outputTokens();
            }
        }
        report("unconstrained tokens/s", freeRates);
        report("grammar-constrained tokens/s", constrainedRates);
        out.printf(Locale.ROOT, "constrained output tokens per run: %s%n", Arrays.toString(constrainedTokens));
        out.printf(Locale.ROOT, "constrained/unconstrained (medians): %.3f%n",
                median(constrainedRates) / median(freeRates));
    }

    /**
     * The same growing chat straight through the binding, the chat template applied by {@code applyTemplate}, with
     * the server's prompt cache (reuse of the evaluated prefix) off or on: the control for the engine's figures.
     */
    private void growingChatRaw(LlamaModel raw, boolean cachePrompt) {
        double[][] ttft = new double[runs][10];
        for (int r = -1; r < runs; r++) {
            StringBuilder messages = new StringBuilder();
            for (int turn = 0; turn < 10; turn++) {
                messages.append(messages.length() == 0 ? "" : ",").append("{\"role\":\"user\",\"content\":")
                        .append(JSON_STRING.apply(userTurn(r, turn))).append('}');
                String prompt = raw.applyTemplate("{\"messages\":[" + messages + "],\"add_generation_prompt\":true}");
                InferenceParameters parameters = new InferenceParameters(prompt).setNPredict(24).setTemperature(0)
                        .setSeed((int) SEED).setCachePrompt(cachePrompt);
                long start = System.nanoTime();
                long first = 0;
                StringBuilder answer = new StringBuilder();
                for (LlamaOutput piece : raw.generate(parameters)) {
                    if (first == 0 && !piece.text.isEmpty()) {
                        first = System.nanoTime();
                    }
                    answer.append(piece.text);
                }
                if (r >= 0) {
                    ttft[r][turn] = ((first == 0 ? System.nanoTime() : first) - start) / 1e6;
                }
                messages.append(",{\"role\":\"assistant\",\"content\":")
                        .append(JSON_STRING.apply(answer.toString())).append('}');
            }
        }
        double[] turn1 = new double[runs];
        double[] turn10 = new double[runs];
        for (int r = 0; r < runs; r++) {
            turn1[r] = ttft[r][0];
            turn10[r] = ttft[r][9];
        }
        String label = "raw binding, cache_prompt=" + cachePrompt;
        out.printf(Locale.ROOT, "%s: time to first token per turn (ms, run 1): %s%n", label, Arrays.toString(
                Arrays.stream(ttft[0]).map(v -> Math.round(v * 100) / 100.0).toArray()));
        report(label + ": turn-1 time to first token (ms)", turn1);
        report(label + ": turn-10 time to first token (ms)", turn10);
        out.printf(Locale.ROOT, "%s: turn-10/turn-1 (medians): %.3f%n", label, median(turn10) / median(turn1));
    }

    private static final java.util.function.UnaryOperator<String> JSON_STRING =
            tools.jackson.databind.json.JsonMapper.builder().build()::writeValueAsString;

    /**
     * A classification-shaped request (a long text, a one-word answer constrained by an enum schema): three
     * {@code REDUNDANT} replicas, each with its own seed, against one {@code STRUCTURED} call, through the facade.
     * Every iteration's text starts with its own ticket number, so that its first call evaluates the whole prompt;
     * the replicas after the first find the prompt in the cache.
     */
    private void redundantVersusSingle(LlamaCppEngine engine) {
        OutputContract label = OutputContract.of(Schema.object()
                .required("label", Schema.enumOf("happy", "sad", "neutral")).build());
        String story = ("Lily went to the park with her mom. She saw a big red ball and a little dog. The dog ran to "
                + "the ball and Lily laughed. Then it started to rain and they ran home. ").repeat(8);
        double[] single = new double[runs];
        double[] redundant = new double[runs];
        int promptTokens = 0;
        try (Orchestrator orchestrator = Orchestrator.builder().engine(engine).build()) {
            for (int i = -3; i < runs; i++) {
                String text = "Ticket " + (2 * i + 10) + ". " + story + "How does Lily feel?";
                SystemRequest once = SystemRequest.builder().mode(Mode.STRUCTURED).user(text).output(label)
                        .hints(ExecutionHints.builder().maxTokens(16).temperature(0.8).build()).build();
                long start = System.nanoTime();
                SystemResponse a = orchestrator.execute(once);
                double singleSeconds = seconds(start);
                String text3 = "Ticket " + (2 * i + 11) + ". " + story + "How does Lily feel?";
                SystemRequest three = SystemRequest.builder().mode(Mode.REDUNDANT).user(text3).output(label)
                        .hints(ExecutionHints.builder().maxTokens(16).temperature(0.8).build()).build();
                start = System.nanoTime();
                SystemResponse b = orchestrator.execute(three);
                double redundantSeconds = seconds(start);
                if (a.error().isPresent() || b.error().isPresent()) {
                    throw new IllegalStateException("classification failed: " + a.error() + " / " + b.error());
                }
                if (i >= 0) {
                    single[i] = singleSeconds * 1000;
                    redundant[i] = redundantSeconds * 1000;
                    promptTokens = a.tokenUsage().promptTokens();
                }
            }
        }
        out.printf(Locale.ROOT, "classification prompt tokens: %d%n", promptTokens);
        report("single STRUCTURED call (ms)", single);
        report("REDUNDANT N=3 (ms)", redundant);
        out.printf(Locale.ROOT, "redundant N=3 / single (medians): %.3f%n", median(redundant) / median(single));
    }

    /**
     * The user's message at a turn of a run. Each run starts with its own text, so that turn 1 is never answered from
     * the prompt cache of an earlier run: turn 1 evaluates its whole prompt, later turns what the cache lacks.
     */
    private static String userTurn(int run, int turn) {
        return (turn == 0 ? "Story " + (run + 2) + ". " : "") + "Tell me more about Lily, part " + (turn + 1) + ".";
    }

    /** Time to the first streamed token (prompt processing) at each turn of a ten-turn chat. */
    private void growingChat(LlamaCppEngine engine) {
        double[][] ttft = new double[runs][10];
        int[][] promptTokens = new int[runs][10];
        for (int r = -1; r < runs; r++) {
            List<Message> messages = new ArrayList<>();
            for (int turn = 0; turn < 10; turn++) {
                messages.add(Message.user(userTurn(r, turn)));
                Request request = Request.builder().messages(messages).maxTokens(24).temperature(0).seed(SEED)
                        .build();
                long[] first = {0};
                long start = System.nanoTime();
                Result result = engine.infer(CallContext.background(), request, StreamHandler.onContent(delta -> {
                    if (first[0] == 0) {
                        first[0] = System.nanoTime();
                    }
                }));
                if (r >= 0) {
                    ttft[r][turn] = ((first[0] == 0 ? System.nanoTime() : first[0]) - start) / 1e6;
                    promptTokens[r][turn] = result.usage().promptTokens();
                }
                messages.add(Message.assistant(result.content()));
            }
        }
        double[] turn1 = new double[runs];
        double[] turn10 = new double[runs];
        for (int r = 0; r < runs; r++) {
            turn1[r] = ttft[r][0];
            turn10[r] = ttft[r][9];
        }
        out.printf(Locale.ROOT, "prompt tokens turn 1: %d, turn 10: %d%n", promptTokens[0][0], promptTokens[0][9]);
        out.printf(Locale.ROOT, "time to first token per turn (ms, run 1): %s%n", Arrays.toString(
                Arrays.stream(ttft[0]).map(v -> Math.round(v * 100) / 100.0).toArray()));
        report("turn-1 time to first token (ms)", turn1);
        report("turn-10 time to first token (ms)", turn10);
        out.printf(Locale.ROOT, "turn-10/turn-1 (medians): %.3f%n", median(turn10) / median(turn1));
    }

    private void report(String what, double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        out.printf(Locale.ROOT, "%-36s median %10.2f  min %10.2f  max %10.2f%n", what, median(values), sorted[0],
                sorted[sorted.length - 1]);
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    /** PAGANTIC_TEST_MODEL_DIR, or ../shared/models from the repository root (the folder holding .ci/run). */
}
