package dev.pagantic.archfixture.compliant.adapter.cli;

import dev.pagantic.archfixture.compliant.engine.fake.FakeEngine;
import dev.pagantic.archfixture.compliant.inference.FinishReason;
import dev.pagantic.archfixture.compliant.orchestrate.facade.Facade;
import dev.pagantic.archfixture.compliant.orchestrate.facade.SystemRequest;
import dev.pagantic.archfixture.compliant.tool.Tool;

/** An adapter that wires an engine and a tool up through builders, uses only the facade, prints and closes. */
public final class Cli {

    public void run(String prompt, Tool tool) {
        try (FakeEngine engine = FakeEngine.builder().reply("hi").finishReason(FinishReason.valueOf("STOP")).build()) {
            Facade facade = Facade.builder().engine(engine).tool(tool::execute).build();
            System.out.println(facade.handle(new SystemRequest(prompt)).text());
        }
    }
}
