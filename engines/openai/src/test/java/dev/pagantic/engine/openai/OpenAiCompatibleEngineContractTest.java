package dev.pagantic.engine.openai;

import dev.pagantic.inference.Engine;
import dev.pagantic.tck.EngineContractTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;

/**
 * The Engine contract kit on the engine in {@link ConstraintMode#GRAMMAR} mode (every capability declared), against a
 * stub server scripted for each scenario: the HTTP, streaming, cancellation and failure paths are the real ones.
 */
class OpenAiCompatibleEngineContractTest extends EngineContractTest {

    private static final String GREETING = "Hello there, it is very nice to meet you today.";

    private final List<StubServer> servers = new ArrayList<>();

    /** The constraint mode of the engines under test. */
    ConstraintMode mode() {
        return ConstraintMode.GRAMMAR;
    }

    @Override
    protected Engine createEngine(Scenario scenario) {
        StubServer server = StubServer.start(request -> switch (scenario) {
            case STREAMING -> StubModel.says(GREETING).thinking("The user wants a short greeting.");
            case MAX_TOKENS -> StubModel.says(words(50));
            // about 10 s unless stopped: long enough to be cancelled, and to outlive the short deadline
            case CANCEL_DURING, DEADLINE -> StubModel.says(words(500)).pausing(Duration.ofMillis(20));
            case TOOL_CALL -> StubModel.says("").calling("get_weather", "{\"city\": \"Paris\"}");
            // a grammar the server never received would leave the model free to say something else
            case GRAMMAR -> StubModel.says(request.json().path("grammar").asString("").isEmpty() ? "maybe" : "yes");
            // a stop string the server never received would let the model go on past it
            case STOP -> StubModel.says(request.json().path("stop").isArray() ? "Hello" : GREETING);
            case BACKEND_FAILURE -> StubServer.error(500, "the model crashed");
            default -> StubModel.says(GREETING);
        });
        servers.add(server);
        return OpenAiCompatibleEngine.builder().baseUrl(server.baseUrl()).modelName("stub-model")
                .constraintMode(mode()).contextWindow(4096).build();
    }

    @AfterEach
    void stopTheServers() {
        servers.forEach(StubServer::close);
        servers.clear();
    }

    private static String words(int count) {
        return IntStream.rangeClosed(1, count).mapToObj(Integer::toString).collect(Collectors.joining(" "));
    }
}
