package dev.pagantic.engine.llamacpp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Request;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine under bad input never takes the JVM down, fails with the documented error codes, and stays usable.
 *
 * <p>Every input that reaches the engine runs in a child JVM ({@link NativeSafetyProbe}): a scenario that aborts the
 * JVM (SIGABRT, nothing to catch) shows as a failed case here, not as a dead build, and the remaining scenarios run
 * in a fresh child. After each scenario the child checks that a greedy request still answers exactly as it did before
 * the first one. Out-of-range limits are refused when the {@link Request} is built, so they can never reach native
 * code: those run in process. {@link NativeAbortTest} covers the inputs known to abort the JVM before this suite
 * (JSON-breaking content, a NUL in a message, {@code n_probs}, tools in the template, embeddings), and
 * {@link LlamaCppEngineTest} the everyday refusals (an over-long prompt, unknown options, a malformed grammar).
 */
class NativeSafetyTest {

    /** Each scenario and how it must end: {@code SURVIVED} (answered) or {@code REFUSED <code>}. */
    private static final Map<String, String> EXPECTED = expected();
    private static final Map<String, String> OUTCOMES = new LinkedHashMap<>();
    private static final Map<String, Boolean> USABLE = new LinkedHashMap<>();

    private static Map<String, String> expected() {
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("empty-user-message", "SURVIVED");
        expected.put("empty-system-and-user-messages", "SURVIVED");
        expected.put("prompt-of-a-mebibyte", "REFUSED INFERENCE_CONTEXT_EXCEEDED");
        expected.put("huge-tool-result", "REFUSED INFERENCE_CONTEXT_EXCEEDED");
        expected.put("lone-surrogates-everywhere", "SURVIVED");
        expected.put("nul-in-tool-arguments", "SURVIVED"); // JSON-escaped in the template's input: harmless text
        // stories260K's template teaches no tool calls: the generic format writes results and definitions as JSON,
        // where a NUL is escaped, harmless text (a template of its own gets them as text, and refuses a NUL)
        expected.put("nul-in-tool-result", "SURVIVED");
        expected.put("nul-in-tool-definition", "SURVIVED");
        expected.put("nul-in-template-switch", "REFUSED CONFIG_INVALID");
        expected.put("odd-stop-strings", "SURVIVED");
        expected.put("random-bytes-out-of-a-hot-sampler", "SURVIVED");
        expected.put("grammar-with-a-nul-character", "REFUSED CONFIG_GRAMMAR_INVALID");
        expected.put("grammar-literal-with-an-escaped-nul", "REFUSED CONFIG_GRAMMAR_INVALID");
        expected.put("grammar-class-of-nul", "REFUSED CONFIG_GRAMMAR_INVALID");
        expected.put("grammar-with-a-surrogate", "REFUSED CONFIG_GRAMMAR_INVALID");
        expected.put("grammar-beyond-the-basic-plane", "SURVIVED STOP 2");
        expected.put("grammar-of-the-empty-string", "SURVIVED STOP");
        expected.put("max-tokens-zero-means-the-rest-of-the-context", "SURVIVED STOP");
        expected.put("temperature-beyond-the-float-range", "REFUSED CONFIG_INVALID");
        expected.put("temperature-that-rounds-to-zero", "SURVIVED");
        expected.put("top-p-zero", "SURVIVED");
        expected.put("sampling-option-beyond-the-float-range", "REFUSED CONFIG_INVALID");
        expected.put("repeat-last-n-below-minus-one", "REFUSED CONFIG_INVALID");
        expected.put("top-k-beyond-the-int-range", "REFUSED CONFIG_INVALID");
        expected.put("odd-but-valid-sampling", "SURVIVED");
        expected.put("close-during-generation", "SURVIVED all ended");
        expected.put("cancel-storm", "SURVIVED all ended");
        return expected;
    }

    @BeforeAll
    static void runTheScenariosInChildJvms() throws Exception {
        Path models = TestModels.model(TestModels.STORIES).getParent();
        List<String> remaining = new ArrayList<>(EXPECTED.keySet());
        while (!remaining.isEmpty()) {
            String crashed = runChild(models, remaining);
            int next = crashed == null ? remaining.size() : remaining.indexOf(crashed) + 1;
            remaining = new ArrayList<>(remaining.subList(next, remaining.size()));
        }
    }

    /** Runs the scenarios in one child; returns the one it died in, or null when it ran them all. */
    private static String runChild(Path models, List<String> scenarios) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", System.getProperty("java.class.path"), NativeSafetyProbe.class.getName()));
        command.addAll(scenarios);
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("PAGANTIC_TEST_MODEL_DIR", models.toString());
        Process child = builder.start();
        List<String> lines = new ArrayList<>();
        CompletableFuture<Void> reading = CompletableFuture.runAsync(() -> read(child, lines));
        boolean ended = child.waitFor(3, TimeUnit.MINUTES);
        if (!ended) {
            child.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            child.destroyForcibly();
        }
        reading.get(30, TimeUnit.SECONDS);
        String current = null;
        synchronized (lines) {
            for (String line : lines) {
                if (line.startsWith("BEGIN ")) {
                    current = line.substring("BEGIN ".length());
                } else if (line.startsWith("OUTCOME ")) {
                    String rest = line.substring("OUTCOME ".length());
                    int space = rest.indexOf(' ');
                    OUTCOMES.put(rest.substring(0, space), rest.substring(space + 1));
                } else if (line.startsWith("USABLE ")) {
                    String[] parts = line.split(" ");
                    USABLE.put(parts[1], Boolean.parseBoolean(parts[2]));
                    current = null;
                }
            }
            if (current == null && child.exitValue() == 0) {
                return null;
            }
            String tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 8), lines.size()));
            String died = ended ? "the JVM died with exit status " + child.exitValue() : "the child hung";
            String at = current != null ? current : scenarios.get(0);
            OUTCOMES.putIfAbsent(at, "CRASHED: " + died + "; output tail:\n" + tail);
            return at;
        }
    }

    private static void read(Process child, List<String> lines) {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                synchronized (lines) {
                    lines.add(line);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static Stream<Arguments> scenarios() {
        return EXPECTED.entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("scenarios")
    void badInputEndsAsDocumentedWithoutCrashingAndTheEngineStaysUsable(String scenario, String expected) {
        String outcome = OUTCOMES.getOrDefault(scenario, "NOT RUN");

        assertThat(outcome).as("outcome of %s", scenario).startsWith(expected);
        assertThat(USABLE.get(scenario)).as("after %s a greedy request answers as before", scenario).isTrue();
    }

    // ---- limits refused while the request is built: no engine, and so no native code, can ever see them ----

    static Stream<Arguments> requestsThatCannotBeBuilt() {
        return Stream.of(
                Arguments.of("maxTokens -1", (UnaryOperator<Request.Builder>) b -> b.maxTokens(-1)),
                Arguments.of("maxTokens MIN_VALUE", (UnaryOperator<Request.Builder>) b -> b.maxTokens(Integer.MIN_VALUE)),
                Arguments.of("temperature -0.1", (UnaryOperator<Request.Builder>) b -> b.temperature(-0.1)),
                Arguments.of("temperature NaN", (UnaryOperator<Request.Builder>) b -> b.temperature(Double.NaN)),
                Arguments.of("temperature infinite", (UnaryOperator<Request.Builder>) b -> b.temperature(
                        Double.POSITIVE_INFINITY)),
                Arguments.of("topP 1.0001", (UnaryOperator<Request.Builder>) b -> b.topP(1.0001)),
                Arguments.of("topP -0.1", (UnaryOperator<Request.Builder>) b -> b.topP(-0.1)),
                Arguments.of("topP NaN", (UnaryOperator<Request.Builder>) b -> b.topP(Double.NaN)),
                Arguments.of("an empty stop string", (UnaryOperator<Request.Builder>) b -> b.addStop("")),
                Arguments.of("an option that is not JSON", (UnaryOperator<Request.Builder>) b -> b.option("top_k",
                        new Object())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requestsThatCannotBeBuilt")
    void anOutOfRangeLimitIsRefusedBeforeAnyEngineCanSeeIt(String what, UnaryOperator<Request.Builder> change) {
        Request.Builder builder = Request.builder().addMessage(Message.user("Hi"));

        assertThatThrownBy(() -> change.apply(builder).build()).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedGrammars")
    void aMalformedGrammarIsRefusedBeforeAnyEngineCanSeeIt(String grammar) {
        assertThatThrownBy(() -> Request.builder().addMessage(Message.user("Hi")).grammar(grammar).build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_GRAMMAR_INVALID));
    }

    static Stream<String> malformedGrammars() {
        return Stream.of("root ::= (\"a\"", "root ::= undefined", "start ::= \"a\"", "root ::= root \"a\"",
                "root ::= [z-a]", "root ::= \"a\"{5000}", "root ::= \"\\U00110000\"", "root ::= \"unterminated");
    }

    @Test
    void aRequestWithoutMessagesCannotBeBuilt() {
        assertThatThrownBy(() -> Request.builder().build()).isInstanceOfSatisfying(PaganticException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }

    @Test
    void theGrammarGuardAllowsTheGrammarsTheInferenceLayerGenerates() {
        // negated classes formally cover U+0000 but are what JSON grammars are made of; comments may say anything
        NativeInputGuard.requireSafeGrammar("root ::= \"\\\"\" [^\"\\\\\\x7F\\x00-\\x1F]* \"\\\"\" # \"\\x00\"\n");
        NativeInputGuard.requireSafeGrammar("root ::= \"\\\"[\" [\\]] \"\uD83D\uDE00\" [\\U0001F600-\\U0001F64F]");
    }
}
