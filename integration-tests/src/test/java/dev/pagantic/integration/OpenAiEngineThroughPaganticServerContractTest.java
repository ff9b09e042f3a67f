package dev.pagantic.integration;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.inference.Capability;
import dev.pagantic.inference.Engine;
import dev.pagantic.inference.ModelInfo;
import dev.pagantic.inference.Request;
import dev.pagantic.inference.Result;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.inference.TokenCounter;
import dev.pagantic.tck.EngineContractTest;
import dev.pagantic.testkit.ScriptedEngine;
import dev.pagantic.testkit.SlowEngine;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The Engine contract kit on the OpenAI-compatible engine talking, over real HTTP, to pagantic's own server: every
 * case starts a server whose engine scripts what the case needs, so the kit checks the client, the server's
 * OpenAI mapping and streaming together.
 */
class OpenAiEngineThroughPaganticServerContractTest extends EngineContractTest {

    private static final String LONG_REPLY = IntStream.rangeClosed(1, 80).mapToObj(Integer::toString)
            .collect(Collectors.joining(" "));

    @Override
    protected Engine createEngine(Scenario scenario) {
        PaganticServer server = new PaganticServer(behind(scenario), "scripted");
        return new ClosingBoth(server.client(8192), server);
    }

    /** The engine behind the server: what the scenario needs. */
    private static Engine behind(Scenario scenario) {
        ScriptedEngine.Builder script = ScriptedEngine.builder().capabilities(Capability.TOOLS, Capability.STREAMING,
                Capability.SEED, Capability.STOP);
        switch (scenario) {
            case MAX_TOKENS -> script.reply(LONG_REPLY);
            case CANCEL_DURING -> {
                return SlowEngine.builder().delegate(script.reply(LONG_REPLY).build())
                        .delayPerToken(Duration.ofMillis(25)).build();
            }
            case DEADLINE -> {
                return SlowEngine.builder().delegate(script.reply(LONG_REPLY).build())
                        .initialDelay(Duration.ofSeconds(1)).build();
            }
            case STREAMING -> script.reply("Hello there, this reply streams word by word.");
            case TOOL_CALL -> script.replyCallingTool(CONTRACT_TOOL.name(), Map.of("city", "Paris"));
            case BACKEND_FAILURE -> script.fail(ErrorCode.INFERENCE_ENGINE_ERROR, "the model crashed");
            default -> script.reply("Hello there, nice to meet you.");
        }
        return script.build();
    }

    @Override
    protected Duration generousTimeout() {
        return Duration.ofSeconds(60);
    }

    /** The client engine, closing its server with it. */
    private record ClosingBoth(Engine client, PaganticServer server) implements Engine {

        @Override
        public Result infer(CallContext context, Request request) {
            return client.infer(context, request);
        }

        @Override
        public Result infer(CallContext context, Request request, StreamHandler handler) {
            return client.infer(context, request, handler);
        }

        @Override
        public ModelInfo modelInfo() {
            return client.modelInfo();
        }

        @Override
        public TokenCounter tokenCounter() {
            return client.tokenCounter();
        }

        @Override
        public void close() {
            client.close();
            server.close();
        }
    }
}
