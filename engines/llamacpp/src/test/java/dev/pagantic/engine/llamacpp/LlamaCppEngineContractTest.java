package dev.pagantic.engine.llamacpp;

import dev.pagantic.inference.Engine;
import dev.pagantic.inference.Request;
import dev.pagantic.tck.EngineContractTest;
import java.time.Duration;

/**
 * The Engine contract kit on the real llama.cpp engine and the stories model. The prompts are the kit's; where a tiny
 * model needs help to produce what a case needs (a long reply to cancel, a tool call), the request says so with a
 * grammar or an option rather than by hoping the model follows instructions.
 */
class LlamaCppEngineContractTest extends EngineContractTest {

    /**
     * At least this many characters: a reply long enough to be cancelled or to outlive a short deadline. stories260K
     * generates over a thousand tokens a second, so the reply must be long for the call to still be running.
     */
    private static final String LONG_REPLY_GRAMMAR = "root ::= [a-z ]{1500,1600}";

    @Override
    protected Engine createEngine(Scenario scenario) {
        if (scenario == Scenario.BACKEND_FAILURE) {
            // a context window the kit's prompt cannot fit: llama.cpp's own limit, reported before decoding
            return LlamaCppEngine.builder().runtime(TestModels.runtime())
                    .modelPath(TestModels.model(TestModels.STORIES)).contextSize(8).threads(2).build();
        }
        return TestModels.stories();
    }

    @Override
    protected Request.Builder baseRequest(Scenario scenario) {
        Request.Builder request = super.baseRequest(scenario).temperature(0).seed(7);
        return switch (scenario) {
            case CANCEL_DURING, DEADLINE -> request.grammar(LONG_REPLY_GRAMMAR);
            case TOOL_CALL -> request.option("tool_choice", "required").maxTokens(1200);
            default -> request;
        };
    }

    @Override
    protected Duration shortDeadline() {
        return Duration.ofMillis(50); // well inside the long reply's generation, even on a fast machine
    }

    @Override
    protected Duration generousTimeout() {
        return Duration.ofMinutes(2); // a hang guard, not a speed limit
    }
}
