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
import java.io.PrintStream;
import java.nio.file.Files;
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

    private static final String MODEL = "stories260K.gguf";
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
            new LlamaBench(System.out, runs).run(modelDirectory().resolve(MODEL));
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

    /** Time to the first streamed token (prompt processing) at each turn of a ten-turn chat. */
    private void growingChat(LlamaCppEngine engine) {
        double[][] ttft = new double[runs][10];
        int[][] promptTokens = new int[runs][10];
        for (int r = -1; r < runs; r++) {
            List<Message> messages = new ArrayList<>();
            for (int turn = 0; turn < 10; turn++) {
                messages.add(Message.user("Tell me more about Lily, part " + (turn + 1) + "."));
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
    private static Path modelDirectory() {
        String configured = System.getenv("PAGANTIC_TEST_MODEL_DIR");
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(".ci/run"))) {
                return dir.resolveSibling("shared").resolve("models");
            }
        }
        throw new IllegalStateException("no model directory: set PAGANTIC_TEST_MODEL_DIR");
    }
}
