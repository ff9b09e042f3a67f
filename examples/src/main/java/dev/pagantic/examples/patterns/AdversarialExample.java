package dev.pagantic.examples.patterns;

import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.Result;
import dev.pagantic.orchestrate.facade.Mode;
import dev.pagantic.orchestrate.facade.Orchestrator;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import dev.pagantic.orchestrate.multimodel.Directive;
import dev.pagantic.orchestrate.multimodel.EngineCatalogue;
import dev.pagantic.testkit.ScriptedEngine;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Seed 003, adversarial mode through the facade: a cheap primary engine plans and refines, the heaviest engine of the
 * catalogue critiques (the default review choice), and the response carries the refined plan and every phase.
 */
public final class AdversarialExample {

    private AdversarialExample() {
    }

    public static void main(String[] args) {
        run(System.out);
    }

    /** Runs the example, writing what it shows to {@code out}. */
    public static void run(PrintStream out) {
        ScriptedEngine planner = ScriptedEngine.builder()
                .reply(Result.of("1. Freeze writes. 2. Copy the data.", TokenUsage.of(40, 10)))
                .reply(Result.of("1. Announce a window. 2. Freeze writes. 3. Copy and verify the data.",
                        TokenUsage.of(90, 16)))
                .build();
        ScriptedEngine critic = ScriptedEngine.builder()
                .reply(Result.of("No verification step and no user notice.", TokenUsage.of(60, 8)))
                .build();
        EngineCatalogue catalogue = EngineCatalogue.builder()
                .add("planner", planner, 3, new BigDecimal("0.10"), new BigDecimal("0.20"))
                .add("critic", critic, 9, new BigDecimal("1.00"), new BigDecimal("3.00"))
                .build();
        try (Orchestrator orchestrator = Orchestrator.builder().engine(planner).catalogue(catalogue).build()) {
            SystemResponse response = orchestrator.execute(SystemRequest.builder()
                    .mode(Mode.ADVERSARIAL)
                    .user("Migrate the billing database")
                    .directive(Directive.builder().primary("planner").iterations(1).build())
                    .build());
            @SuppressWarnings("unchecked")
            Map<String, Object> result = (Map<String, Object>) response.structuredOutput().orElseThrow();
            out.println("initial plan: " + result.get("initial_plan"));
            out.println("critique (" + result.get("review") + "): " + result.get("critique"));
            out.println("refined plan: " + response.content());
            out.println("usage: " + response.tokenUsage().promptTokens() + " prompt, "
                    + response.tokenUsage().outputTokens() + " output tokens; cost " + result.get("cost"));
            out.println("reason: " + result.get("reason"));
        }
    }
}
