package dev.pagantic.examples;

import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.engine.llamacpp.LlamaRuntime;
import dev.pagantic.inference.Engine;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.TestModels;
import dev.pagantic.types.OutputType;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

/**
 * Structured output straight to a record: the schema comes from the Java type, the model's answer is constrained by a
 * grammar derived from it, validated against it, and handed back as an instance of the type. On
 * {@code stories260K.gguf} (in {@code PAGANTIC_TEST_MODEL_DIR}, by default {@code ../shared/models}), a model that
 * follows no instructions, the values are invented but always fit the type; without the model it runs on the scripted
 * engine, labelled as such.
 */
public final class RecordExtraction {

    static final String MODEL_FILE = "stories260K.gguf";

    /** What kind of animal a pet is. */
    public enum Animal { CAT, DOG, BIRD }

    /** The record the answer becomes. */
    public record Pet(Animal animal, int age, boolean friendly, LocalDate born) {
    }

    private RecordExtraction() {
    }

    public static void main(String[] args) {
        run(System.out, TestModels.directory());
    }

    /** Runs the example; returns the extracted pet. */
    public static Pet run(PrintStream out, Path modelDir) {
        Path model = modelDir.resolve(MODEL_FILE);
        boolean real = Files.isRegularFile(model);
        OutputType<Pet> pet = OutputType.of(Pet.class);
        try (LlamaRuntime runtime = real ? LlamaRuntime.create() : null;
             Engine engine = real ? LlamaCppEngine.builder().runtime(runtime).modelPath(model).seed(7).build()
                     : ScriptedEngine.replying("{\"animal\":\"CAT\",\"age\":3,\"friendly\":true,"
                             + "\"born\":\"2023-04-01\"}");
             Orchestrator pagantic = Orchestrator.builder().engine(engine).build()) {
            SystemResponse response = pagantic.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                    .user("Tom is a friendly three-year-old cat, born on 1 April 2023.")
                    .output(OutputContract.of(pet.schema()))
                    .hints(ExecutionHints.builder().maxTokens(128).build())
                    .build());
            Pet extracted = response.structuredOutput(pet).orElseThrow(() -> new IllegalStateException(
                    "no pet: " + response.error().map(Object::toString).orElse(response.finishReason().toString())));
            out.println((real ? "llama.cpp, " + MODEL_FILE : "scripted engine (no model)") + ": " + extracted);
            return extracted;
        }
    }
}
