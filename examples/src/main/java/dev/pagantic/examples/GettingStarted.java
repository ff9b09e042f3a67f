package dev.pagantic.examples;

import dev.pagantic.engine.llamacpp.LlamaCppEngine;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.OutputContract;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.types.OutputType;
import java.nio.file.Path;

public final class GettingStarted {
    public record Person(String name, int age) {
    }

    public static void main(String[] args) {
        System.out.println(extract(Path.of(args[0]), "Alice is 30 years old."));
    }

    public static Person extract(Path model, String text) {
        OutputType<Person> person = OutputType.of(Person.class);
        try (LlamaCppEngine engine = LlamaCppEngine.builder().modelPath(model).build();
             Orchestrator pagantic = Orchestrator.builder().engine(engine).maxTokens(128).build()) {
            SystemResponse response = pagantic.execute(SystemRequest.builder().mode(Mode.STRUCTURED)
                    .output(OutputContract.of(person.schema())).user("Extract the person: " + text).build());
            return response.structuredOutput(person).orElseThrow(() -> new IllegalStateException("no person: "
                    + response.error().map(Object::toString).orElse("cut off at the token limit")));
        }
    }
}
