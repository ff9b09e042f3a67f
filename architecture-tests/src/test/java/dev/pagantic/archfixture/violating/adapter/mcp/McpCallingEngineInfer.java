package dev.pagantic.archfixture.violating.adapter.mcp;

import dev.pagantic.archfixture.violating.engine.x.XEngine;
import dev.pagantic.archfixture.violating.inference.InferenceRequest;

/** Breaks "adapters only build and close wired components": the tool layer is the MCP adapter's only exception. */
public final class McpCallingEngineInfer {

    public String answer(String prompt) {
        return XEngine.builder().build().infer(new InferenceRequest(prompt));
    }
}
