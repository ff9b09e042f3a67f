package dev.pagantic.engine.llamacpp;

import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.Request;
import java.util.Map;

/**
 * Run in a child JVM by {@link NativeAbortTest}: sends one input, through the engine's public API, of a kind that
 * aborts the whole JVM (SIGABRT) when it reaches java-llama.cpp unchecked, and prints what happened. A regression
 * kills this process, not the build, and the test sees the exit status.
 */
public final class NativeAbortProbe {

    private NativeAbortProbe() {
    }

    public static void main(String[] args) {
        String scenario = args[0];
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
            default -> throw new IllegalArgumentException(scenario);
        };
    }

    private static Request.Builder request(String text) {
        return Request.builder().addMessage(Message.user(text)).temperature(0).maxTokens(4);
    }

    private static LlamaCppEngine engine(boolean embeddings) {
        return LlamaCppEngine.builder().modelPath(TestModels.model(TestModels.STORIES)).contextSize(2048).threads(2)
                .embeddings(embeddings).build();
    }
}
