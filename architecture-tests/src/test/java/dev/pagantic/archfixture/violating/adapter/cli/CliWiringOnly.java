package dev.pagantic.archfixture.violating.adapter.cli;

import dev.pagantic.archfixture.violating.engine.x.XEngine;
import dev.pagantic.archfixture.violating.inference.FinishReason;
import dev.pagantic.archfixture.violating.orchestrate.facade.Facade;
import dev.pagantic.archfixture.violating.orchestrate.facade.SystemRequest;
import dev.pagantic.archfixture.violating.tool.Tool;

/**
 * Compliant: builds an engine, plugs a tool in by method reference, talks only to the facade, prints to the console
 * (adapters own it), switches over an inference enum and closes the engine.
 */
public final class CliWiringOnly {

    public String answer(String prompt, Tool tool) {
        XEngine engine = XEngine.builder().model("tiny").build();
        try {
            Facade facade = Facade.builder().engine(engine).tool(tool::execute).build();
            String text = facade.handle(new SystemRequest(prompt)).text();
            System.out.println(text);
            return text + describe(FinishReason.STOP);
        } finally {
            engine.close();
        }
    }

    private static String describe(FinishReason reason) {
        switch (reason) {
            case STOP:
                return " (done)";
            case LENGTH:
                return " (cut off)";
            default:
                return "";
        }
    }
}
