package dev.pagantic.engine.llamacpp;

import de.kherud.llama.InferenceParameters;
import de.kherud.llama.LlamaModel;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Run in a child JVM by {@link NativeAbortTest}: sends one input, through the engine's public API, of a kind that
 * aborts the whole JVM (SIGABRT) when it reaches java-llama.cpp unchecked, and prints what happened. A regression
 * kills this process, not the build, and the test sees the exit status.
 */
public final class NativeAbortProbe {

    private NativeAbortProbe() {
    }

    /**
     * A chat template that raises on the conversation's shape, as Mistral's, Gemma's and others do: a system message
     * only at the beginning, then user and assistant alternating from a user message.
     */
    public static final String STRICT_TEMPLATE = """
            {%- if messages[0]['role'] == 'system' -%}{%- set loop_messages = messages[1:] -%}\
            {{- '<<SYS>>' + messages[0]['content'] + '<</SYS>>' -}}\
            {%- else -%}{%- set loop_messages = messages -%}{%- endif -%}
            {%- for message in loop_messages -%}
            {%- if message['role'] == 'system' -%}\
            {{- raise_exception('System message must be at the beginning.') -}}{%- endif -%}
            {%- if loop.first and message['role'] != 'user' -%}\
            {{- raise_exception('Conversation must start with a user message.') -}}{%- endif -%}
            {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}\
            {{- raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') -}}{%- endif -%}
            {%- if message['role'] == 'user' -%}{{- '[INST] ' + message['content'] + ' [/INST]' -}}\
            {%- else -%}{{- message['content'] + eos_token -}}{%- endif -%}
            {%- endfor -%}""";

    /**
     * Conversations whose shape {@link #STRICT_TEMPLATE} rejects, by name: the engine shapes the first two (a second
     * system message is where the orchestrator places retrieved context) and refuses the third.
     */
    static final Map<String, List<Message>> CONVERSATIONS = Map.of(
            "two-user-messages-in-a-row", List.of(Message.user("Hi"), Message.user("Are you there?")),
            "a-second-system-message", List.of(Message.system("Be brief."), Message.user("Hi"),
                    Message.assistant("Hello"), Message.system("Be verbose."), Message.user("Tell a story")),
            "an-assistant-message-first", List.of(Message.assistant("Hello"), Message.user("Hi")));

    public static void main(String[] args) throws IOException {
        String scenario = args[0];
        if (scenario.startsWith("native-")) {
            nativeOnly(scenario);
            System.exit(0);
        }
        try {
            System.out.println("SURVIVED " + run(scenario));
        } catch (PaganticException refused) {
            System.out.println("REFUSED " + refused.code());
        }
        System.exit(0); // native threads would keep the JVM alive
    }

    private static String run(String scenario) {
        return switch (scenario) {
            case "json-breaking-content" -> {
                // applyTemplate aborts on malformed JSON and on an escaped lone surrogate; these would produce both
                String nasty = "\"}]}, {\"role\": \"x\" \\ud800 \\\" \uD800 \uDC00 \uD83D\uDE00 \u2028 {{ }} \\";
                yield engine(false).infer(request(nasty).addMessage(Message.assistant(nasty))
                        .addMessage(Message.user(nasty)).build()).finishReason().name();
            }
            case "tools-in-template" -> engine(false).infer(request("Weather?").addTool(ToolDefinition.of("get_weather",
                    "Weather \"now\"", Schema.object().required("city", Schema.string().withMaxLength(8)).build()))
                    .option("tool_choice", "required").maxTokens(1200).build()).finishReason().name();
            case "schema-to-grammar" -> engine(false).infer(request("JSON").schema(Schema.object()
                    .required("n", Schema.integer()).required("s", Schema.string().withMaxLength(5)).build())
                    .maxTokens(100).build()).content();
            case "unknown-schema-type" -> Schema.fromJsonSchema(Map.of("type", "color")).toString();
            case "n-probs" -> engine(false).infer(request("Hi").option("n_probs", 5).build()).content();
            case "nul-in-message" -> engine(false).infer(request("a\0b").build()).content();
            case "embeddings-on-llama" -> String.valueOf(engine(true).embed("hello").length);
            default -> {
                if (scenario.startsWith("template:")) {
                    // the prompt on one line (a newline as \n), then the finish reason of the answer to it
                    Request request = Request.builder().messages(CONVERSATIONS.get(scenario.substring(
                            "template:".length()))).temperature(0).maxTokens(4).build();
                    LlamaCppEngine engine = strictEngine();
                    yield "PROMPT " + engine.prompt(request).replace("\n", "\\n") + " FINISHED "
                            + engine.infer(request).finishReason().name();
                }
                throw new IllegalArgumentException(scenario);
            }
        };
    }

    /**
     * Sends a value to the binding itself, without the engine's checks: shows what the engine must keep from native
     * code. {@code native-template:<conversation>} renders one of {@link #CONVERSATIONS} with {@link #STRICT_TEMPLATE};
     * {@code native-n-probs:<n>} and {@code native-logit-bias:<bias>} generate with that {@code n_probs} or a bias on
     * token 10.
     */
    private static void nativeOnly(String scenario) {
        String kind = scenario.substring(0, scenario.indexOf(':'));
        String value = scenario.substring(kind.length() + 1);
        boolean template = kind.equals("native-template");
        Path model = template ? strictModel() : TestModels.model(TestModels.STORIES);
        try (LlamaModel raw = new LlamaModel(new ModelSpec(model, 256, 2, 0, 512, 1, 0, false).toParameters())) {
            if (template) {
                List<Message> messages = CONVERSATIONS.get(value);
                System.out.println("RENDERED " + raw.applyTemplate(PromptRenderer.input(messages, List.of(),
                        Map.of()).toString()));
                return;
            }
            InferenceParameters parameters = new InferenceParameters("Once upon a time").setNPredict(4);
            if (kind.equals("native-n-probs")) {
                parameters.setNProbs(Integer.parseInt(value));
            } else {
                parameters.setTokenIdBias(Map.of(10, Float.parseFloat(value)));
            }
            System.out.println("GENERATED " + raw.complete(parameters));
        }
    }

    /** stories260K under {@link #STRICT_TEMPLATE}, in a temporary folder. */
    private static Path strictModel() {
        try {
            Path folder = Files.createTempDirectory("pagantic-strict-template");
            folder.toFile().deleteOnExit();
            Path model = GgufFiles.withTemplate(TestModels.model(TestModels.STORIES), folder.resolve("strict.gguf"),
                    STRICT_TEMPLATE);
            model.toFile().deleteOnExit();
            return model;
        } catch (IOException failure) {
            throw new java.io.UncheckedIOException(failure);
        }
    }

    private static LlamaCppEngine strictEngine() {
        return LlamaCppEngine.builder().modelPath(strictModel()).contextSize(256).threads(2).build();
    }

    private static Request.Builder request(String text) {
        return Request.builder().addMessage(Message.user(text)).temperature(0).maxTokens(4);
    }

    private static LlamaCppEngine engine(boolean embeddings) {
        return LlamaCppEngine.builder().modelPath(TestModels.model(TestModels.STORIES)).contextSize(2048).threads(2)
                .embeddings(embeddings).build();
    }
}
